import { describe, expect, it } from "vitest";
import {
  answerDigest,
  buildReceipt,
  checkAnswersAgainstReceipt,
  checkReceiptBinding,
  commitTestSet,
  composite,
  promptHash,
  canonicalJsonString,
  receiptHash,
  receiptTextAndHash,
  regradeRun,
  type Receipt,
  type RevealedAnswer,
  type TestSetRow,
} from "../src/index.js";
import { vector } from "./vectors.js";

const rv = vector("receipts.json");
const threeRows = vector("commitment.json").test_sets.find((t: { name: string }) => t.name === "three-rows")
  .rows as TestSetRow[];
const root = commitTestSet(threeRows).root;

describe("receipts.json vectors (SPEC 4)", () => {
  for (const c of rv.answer_digests) {
    it(`answer digest of ${JSON.stringify(c.answer_text).slice(0, 30)}`, () => {
      expect(answerDigest(c.answer_text, c.answer_salt)).toBe(c.answer_digest);
    });
  }

  it("the salt is checked on every call, whatever salt came before (the decoded salt is cached)", () => {
    const c = rv.answer_digests[2]; // a salt with hex letters
    expect(answerDigest(c.answer_text, c.answer_salt)).toBe(c.answer_digest);
    for (const bad of ["", c.answer_salt.toUpperCase(), c.answer_salt.slice(2), `0x${c.answer_salt}`, null])
      expect(() => answerDigest(c.answer_text, bad as string)).toThrow(
        /answer_salt must be 64 lowercase hex/,
      );
    expect(answerDigest(c.answer_text, c.answer_salt)).toBe(c.answer_digest);
    for (const d of rv.answer_digests)
      expect(answerDigest(d.answer_text, d.answer_salt)).toBe(d.answer_digest);
  });

  for (const c of rv.receipts) {
    describe(c.name, () => {
      it("receipt hash", () => {
        expect(receiptHash(c.receipt)).toBe(c.receipt_hash);
      });

      it("receiptTextAndHash: the canonical JSON text and the same hash, from one serialisation", () => {
        expect(receiptTextAndHash(c.receipt)).toEqual({
          text: canonicalJsonString(c.receipt),
          hash: c.receipt_hash,
        });
      });

      it("answers match the receipt and bind to the three-rows test set", () => {
        const check = checkAnswersAgainstReceipt(c.receipt, c.answers, c.answer_salt, {
          testSet: threeRows,
          commitRoot: root,
        });
        expect(check.problems).toEqual([]);
        expect(check.ok).toBe(true);
      });

      it("regrades to the stated rank_accuracy, score_public and composite", () => {
        const r = regradeRun(threeRows, c.receipt, c.answers, c.answer_salt, { commitRoot: root });
        expect(r.problems).toEqual([]);
        expect(r.rank_accuracy).toBe(c.rank_accuracy);
        expect(r.score_public).toBe(c.receipt.score_public);
        const comp = composite({
          rank_accuracy: r.rank_accuracy as string,
          wall_seconds: c.receipt.wall_seconds,
          usdc_spent: c.receipt.usdc_spent,
          speed_weight: "0.3",
          cost_weight: "0",
          time_budget_seconds: 600,
          cost_budget_usdc: null,
        });
        expect(comp).toBe(c.receipt.score_composite);
      });

      it("buildReceipt rebuilds the same payload from the run", () => {
        const receipt = c.receipt as Receipt;
        const answers = c.answers as RevealedAnswer[];
        const built = buildReceipt({
          ...receipt,
          answer_salt: c.answer_salt,
          tasks: receipt.tasks.map((t) => ({
            bank_ordinal: t.bank_ordinal,
            prompt_hash: t.prompt_hash,
            visibility: t.visibility,
            answer_text: answers.find((a) => a.ordinal === t.ordinal)?.answer_text ?? null,
          })),
        });
        expect(receiptHash(built)).toBe(c.receipt_hash);
      });
    });
  }
});

describe("checkAnswersAgainstReceipt problems", () => {
  const c = rv.receipts.find((x: { name: string }) => x.name === "one-unanswered-task");
  const receipt = c.receipt as Receipt;
  const answers = c.answers as RevealedAnswer[];
  const codes = (
    a: RevealedAnswer[],
    r: Receipt = receipt,
    salt: string = c.answer_salt,
    root_: string = root,
  ): string[] =>
    checkAnswersAgainstReceipt(r, a, salt, { testSet: threeRows, commitRoot: root_ }).problems.map(
      (p) => p.code,
    );

  it("a changed answer text is a digest mismatch at its path", () => {
    const p = checkAnswersAgainstReceipt(
      receipt,
      [{ ...answers[0]!, answer_text: "x" }, answers[1]!],
      c.answer_salt,
      { testSet: threeRows },
    );
    expect(p.problems).toHaveLength(1);
    expect(p.problems[0]).toMatchObject({ code: "answer_digest_mismatch", path: "$.answers[0].answer_text" });
  });

  it("a wrong salt breaks every digest", () => {
    expect(codes(answers, receipt, "0".repeat(64))).toEqual([
      "answer_digest_mismatch",
      "answer_digest_mismatch",
    ]);
  });

  it("a hidden answer, a duplicate, an answer for an unanswered task and a wrong bank ordinal are reported", () => {
    expect(codes([answers[0]!])).toEqual(["missing_answer"]);
    expect(codes([...answers, answers[0]!])).toEqual(["duplicate_answer"]);
    expect(codes([...answers, { ordinal: 1, bank_ordinal: 1, answer_text: "1e-7" }])).toEqual([
      "answer_for_unanswered_task",
    ]);
    expect(codes([{ ...answers[0]!, bank_ordinal: 2 }, answers[1]!])).toEqual(["bank_ordinal_mismatch"]);
    expect(codes([...answers, { ordinal: 9, bank_ordinal: 0, answer_text: "" }])).toEqual([
      "answer_without_task",
    ]);
  });

  it("binds the receipt to the test set and the root", () => {
    const tasks = receipt.tasks.map((t, i) =>
      i === 2 ? { ...t, prompt_hash: receipt.tasks[0]!.prompt_hash } : t,
    );
    expect(codes(answers, { ...receipt, tasks })).toContain("prompt_hash_mismatch");
    const vis = receipt.tasks.map((t, i) => (i === 2 ? { ...t, visibility: "private" as const } : t));
    expect(codes(answers, { ...receipt, tasks: vis })).toContain("visibility_mismatch");
    const far = receipt.tasks.map((t, i) => (i === 2 ? { ...t, bank_ordinal: 3 } : t));
    expect(codes(answers, { ...receipt, tasks: far })).toContain("bank_ordinal_out_of_range");
    expect(codes(answers, receipt, c.answer_salt, `0x${"11".repeat(32)}`)).toEqual(["commit_root_mismatch"]);
  });
});

describe("checkReceiptBinding (a receipt without its answers)", () => {
  const c = rv.receipts.find((x: { name: string }) => x.name === "one-unanswered-task");
  const receipt = c.receipt as Receipt;
  const promptHashes = threeRows.map((r) => promptHash(r.prompt));
  const rp = "$.benchmark.ranked[2].receipt";
  const check = (r: Receipt, root_: string = root) =>
    checkReceiptBinding(r, { testSet: threeRows, commitRoot: root_, receiptPath: rp });
  const withTask = (i: number, patch: Record<string, unknown>): Receipt => ({
    ...receipt,
    tasks: receipt.tasks.map((t, j) => (j === i ? { ...t, ...patch } : t)) as Receipt["tasks"],
  });

  it("the vector receipt is bound to its test set and root, with no answers or salt", () => {
    expect(check(receipt)).toEqual({ ok: true, problems: [] });
    expect(checkReceiptBinding(receipt, { promptHashes, commitRoot: root }).ok).toBe(true);
    expect(checkReceiptBinding(receipt).ok).toBe(true);
  });

  it("names each broken binding with its code and JSON path", () => {
    expect(check(receipt, `0x${"11".repeat(32)}`).problems).toEqual([
      expect.objectContaining({ code: "commit_root_mismatch", path: `${rp}.commit_root` }),
    ]);
    expect(check(withTask(2, { prompt_hash: receipt.tasks[0]!.prompt_hash })).problems).toEqual([
      expect.objectContaining({ code: "prompt_hash_mismatch", path: `${rp}.tasks[2].prompt_hash` }),
    ]);
    expect(check(withTask(2, { visibility: "private" })).problems).toEqual([
      expect.objectContaining({ code: "visibility_mismatch", path: `${rp}.tasks[2].visibility` }),
    ]);
    expect(check(withTask(1, { bank_ordinal: 3 })).problems).toEqual([
      expect.objectContaining({
        code: "bank_ordinal_out_of_range",
        path: `${rp}.tasks[1].bank_ordinal`,
        message: "bank_ordinal 3 is not a row of the test set (0..2)",
      }),
    ]);
    expect(check(withTask(0, { ordinal: 5 })).problems).toEqual([
      expect.objectContaining({ code: "task_ordinal", path: `${rp}.tasks[0].ordinal` }),
    ]);
    expect(check({ ...receipt, tasks: undefined } as unknown as Receipt).problems.map((p) => p.code)).toEqual(
      ["bad_receipt"],
    );
  });

  it("does not look at answer digests: a changed digest still binds (checkAnswersAgainstReceipt catches it)", () => {
    const changed = withTask(0, { answer_digest: `0x${"ab".repeat(32)}` });
    expect(check(changed).ok).toBe(true);
    const full = checkAnswersAgainstReceipt(changed, c.answers, c.answer_salt, { testSet: threeRows });
    expect(full.problems.map((p) => p.code)).toEqual(["answer_digest_mismatch"]);
  });

  it("prompt hashes alone bind bank ordinals and prompts but not visibility", () => {
    const vis = withTask(2, { visibility: "private" });
    expect(checkReceiptBinding(vis, { promptHashes }).ok).toBe(true);
    const swapped = withTask(0, { bank_ordinal: 1 });
    expect(checkReceiptBinding(swapped, { promptHashes }).problems.map((p) => p.code)).toEqual([
      "prompt_hash_mismatch",
    ]);
  });
});

describe("buildReceipt format rules", () => {
  const c = rv.receipts[0];
  const input = {
    ...(c.receipt as Receipt),
    answer_salt: c.answer_salt as string,
    tasks: (c.receipt as Receipt).tasks.map((t) => ({
      bank_ordinal: t.bank_ordinal,
      prompt_hash: t.prompt_hash,
      visibility: t.visibility,
      answer_text: "a",
    })),
  };

  it.each([
    ["wall_seconds", "12.34", "$.wall_seconds"],
    ["usdc_spent", "0.01", "$.usdc_spent"],
    ["score_public", "0.5", "$.score_public"],
    ["started_at", "2026-03-01T09:04:56Z", "$.started_at"],
    ["commit_root", (c.receipt as Receipt).commit_root.toUpperCase().replace("0X", "0x"), "$.commit_root"],
    ["answer_salt", "00", "$.answer_salt"],
    ["run_id", "", "$.run_id"],
    ["benchmark_slug", "", "$.benchmark_slug"],
    ["agent_id", 7, "$.agent_id"],
    ["attempt", 0, "$.attempt"],
    ["finalized_at", "2026-03-01", "$.finalized_at"],
    ["queries_used", -1, "$.queries_used"],
    ["score_composite", "1", "$.score_composite"],
  ])("refuses a bad %s", (field, value, path) => {
    try {
      buildReceipt({ ...input, [field]: value });
      throw new Error("not refused");
    } catch (e) {
      expect((e as { code: string }).code).toBe("schema");
      expect((e as { path: string }).path).toBe(path);
      expect((e as Error).message).toContain(`${field} must `);
    }
  });

  it("keeps graded credits as reduced fractions and refuses unreduced ones", () => {
    const graded = buildReceipt({ ...input, tasks: input.tasks.map((t) => ({ ...t, credit: "2/3" })) });
    expect(graded.tasks.map((t) => t.credit)).toEqual(["2/3", "2/3", "2/3"]);
    expect(() =>
      buildReceipt({ ...input, tasks: input.tasks.map((t) => ({ ...t, credit: "2/4" })) }),
    ).toThrow(/\$\.tasks\[0\]\.credit/);
  });
});
