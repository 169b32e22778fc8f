/**
 * probe D1-F3: 200-300 KB of invalid answers (`{"answers":[0,0,...]}`, `[{},{},...]`) held the event
 * loop 1-3 s, REST and MCP: zod's `safeParse` builds every issue (100,000-200,000, each with its
 * message) before the 422 keeps 20. A body's arrays over MAX_DETAIL_ITEMS items are now checked item
 * by item first, and the check stops once more issues than the 422 serves are found: it then says
 * `errors_total_at_least` (the count is not known) instead of `errors_total`.
 */
import { z } from "zod";
import { describe, expect, it } from "vitest";
import { EdgeError, MAX_DETAIL_ITEMS } from "../src/errors.js";
import { validateBody } from "../src/route.js";
import { SubmitBody } from "../src/schemas.js";
import { call, register, useLive } from "./helpers.js";

/** The refusal `validateBody` throws. */
function refusal(schema: z.ZodType, value: unknown): EdgeError {
  try {
    validateBody(schema, value);
  } catch (e) {
    if (e instanceof EdgeError) return e;
    throw e;
  }
  throw new Error("expected a refusal");
}

const live = useLive();

describe("a large invalid body's validation stops after the issues its 422 serves (probe D1-F3)", () => {
  it("items are checked one by one and the check stops past MAX_DETAIL_ITEMS issues", () => {
    let checked = 0;
    const Item = z.number().refine((v) => {
      checked++;
      return v > 0;
    });
    const e = refusal(z.strictObject({ answers: z.array(Item) }), { answers: new Array(100_000).fill(0) });
    expect(checked).toBeLessThanOrEqual(MAX_DETAIL_ITEMS + 1);
    expect(e.details.errors).toHaveLength(MAX_DETAIL_ITEMS);
    expect(e.details).toMatchObject({
      path: "$.answers[0]",
      errors_total_at_least: MAX_DETAIL_ITEMS + 1,
      truncated: true,
    });
    expect(e.details).not.toHaveProperty("errors_total");
  });

  it("the probe's bodies: 100,000 zeros and 100,000 empty answers", () => {
    for (const [answers, path] of [
      [new Array(100_000).fill(0), "$.answers[0]"],
      [Array.from({ length: 100_000 }, () => ({})), "$.answers[0].ordinal"],
    ] as const) {
      const e = refusal(SubmitBody, { answers });
      expect(e.code).toBe("invalid_request");
      expect(e.details.errors).toHaveLength(MAX_DETAIL_ITEMS);
      expect(e.details).toMatchObject({ path, truncated: true });
      expect(e.details.errors_total_at_least).toBeGreaterThan(MAX_DETAIL_ITEMS);
      expect(e.details.errors_total_at_least).toBeLessThanOrEqual(MAX_DETAIL_ITEMS + 2);
    }
  });

  it("a few invalid items among many, and another member's issue: every issue, counted exactly", () => {
    const answers: unknown[] = Array.from({ length: 1_000 }, (_, i) => ({ ordinal: i, answer_text: "a" }));
    answers[500] = { ordinal: "x", answer_text: "a" };
    answers[900] = 7;
    const e = refusal(z.strictObject({ run_id: z.string(), answers: SubmitBody.shape.answers }), { answers });
    expect(e.details).toEqual({
      path: "$.run_id",
      errors: [
        expect.objectContaining({ path: "$.run_id" }),
        expect.objectContaining({ path: "$.answers[500].ordinal" }),
        expect.objectContaining({ path: "$.answers[900]" }),
      ],
    });
    // and a valid one of 100,000 answers is accepted whole
    const valid = { answers: Array.from({ length: 100_000 }, (_, i) => ({ ordinal: i, answer_text: "a" })) };
    expect(validateBody(SubmitBody, valid)).toEqual(valid);
  });

  it("REST submissions and the MCP tool serve it: 20 issues, errors_total_at_least, truncated", async () => {
    const me = await register(live.url, "cost-rest");
    const rest = await call(live.url, "POST", "/api/v1/benchmarks/runs/run-0123456789abcdef/submissions", {
      key: me.key,
      raw: JSON.stringify({ answers: new Array(100_000).fill(0) }),
    });
    expect(rest.status, rest.text).toBe(422);
    expect(rest.json.error.details.errors).toHaveLength(MAX_DETAIL_ITEMS);
    expect(rest.json.error.details).toMatchObject({
      path: "$.answers[0]",
      errors_total_at_least: MAX_DETAIL_ITEMS + 1,
      truncated: true,
    });
    const args = { run_id: "run-0123456789abcdef", answers: Array.from({ length: 100_000 }, () => ({})) };
    const res = await fetch(`${live.url}/mcp`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        authorization: `Bearer ${me.key}`,
      },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "tools/call",
        params: { name: "benchmark_submit_answers", arguments: args },
      }),
    });
    const body = (await res.json()) as any;
    expect(body.result.isError).toBe(true);
    const details = body.result.structuredContent.error.details;
    expect(details.errors).toHaveLength(MAX_DETAIL_ITEMS);
    expect(details).toMatchObject({ path: "$.answers[0].ordinal", truncated: true });
    expect(details.errors_total_at_least).toBeGreaterThan(MAX_DETAIL_ITEMS);
  });
});
