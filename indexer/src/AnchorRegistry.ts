/**
 * Handler of AnchorRegistry's `Anchored` (SPEC 1.2). The registry keeps the
 * first anchoring of a digest forever and refuses a second one, so a second
 * `Anchored` for a digest is impossible: it is logged loudly and not applied.
 */
import { anchorKindName } from "@bench-bounty/contracts";
import { ponder } from "ponder:registry";
import { anchor } from "ponder:schema";
import { alreadyReported, eventRef, logPositionOf, reportAnomaly } from "./shared";

ponder.on("AnchorRegistry:Anchored", async ({ event, context }) => {
  const { db } = context;
  const digest = event.args.digest.toLowerCase() as `0x${string}`;
  const kind = event.args.kind.toLowerCase() as `0x${string}`;
  const existing = await db.find(anchor, { digest });
  if (existing !== null && existing.eventId === event.id) return; // replay
  if (existing !== null) {
    if (await alreadyReported(db, event.id)) return;
    await reportAnomaly(
      db,
      eventRef(event),
      "Anchored",
      null,
      `digest ${digest} anchored again (first at block ${existing.blockNumber}, tx ${existing.txHash})`,
    );
    return;
  }
  await db.insert(anchor).values({
    digest,
    kind,
    kindName: anchorKindName(kind) ?? "unknown",
    anchorer: event.args.anchorer.toLowerCase() as `0x${string}`,
    eventId: event.id,
    ...logPositionOf(event),
  });
});
