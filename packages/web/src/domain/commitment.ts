/**
 * What the benchmark page says of a commitment whose anchor is not recorded (probe15 A-F6): pending,
 * squatted (its root anchored first by someone else with another kind, named with the kind found, the
 * anchorer and the block: it can never be anchored as a commitment, so no run starts and no award
 * can verify), or simply not anchored (no chain). The server decides the state (`commitment.status`).
 *
 * @packageDocumentation
 */

/** The commitment fields read here (as the detail serves them; older servers send no `status`). */
export interface CommitmentState {
  status?: string;
  squat?: { found_kind: string; anchorer: string; anchor_block: number } | null;
}

/** The text of the Anchor fact of a commitment without a recorded anchor. */
export function unanchoredCommitmentText(c: CommitmentState): string {
  if (c.status === "squatted" && c.squat)
    return `squatted: anchored first by ${c.squat.anchorer} in block ${c.squat.anchor_block} with kind ${c.squat.found_kind}; it can never be anchored as a commitment, so no run starts and no award can verify`;
  if (c.status === "pending") return "pending (the root is shown once anchored)";
  return "not anchored";
}
