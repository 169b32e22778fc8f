/**
 * A refusal's `details` lists are capped (probe4 submit-cpu: a 422 listing 130,000 duplicate
 * answers was 13.8 MB): the first MAX_DETAIL_ITEMS items, the full count beside them.
 */
import { PlatformError } from "@bench-bounty/platform";
import { describe, expect, it } from "vitest";
import { EdgeError, errorResponseOf, MAX_DETAIL_ITEMS } from "../src/errors.js";
import { validateBody } from "../src/route.js";
import { SubmitBody } from "../src/schemas.js";

describe("error details", () => {
  it("a long list in details is cut to its first items and counted", () => {
    const errors = Array.from({ length: 5000 }, (_, index) => ({ index, code: "duplicate_ordinal" }));
    const r = errorResponseOf(
      new PlatformError("invalid_answers", "answers[1]: dup", { errors, valid_ordinals: { min: 0, max: 3 } }),
    );
    expect(r.status).toBe(422);
    const d = r.body.error.details;
    expect(d.errors).toEqual(errors.slice(0, MAX_DETAIL_ITEMS));
    expect(d).toMatchObject({ errors_total: 5000, truncated: true, valid_ordinals: { min: 0, max: 3 } });
    expect(JSON.stringify(r.body).length).toBeLessThan(4000);
  });

  it("short lists are served whole, without a count", () => {
    const errors = [{ index: 0 }, { index: 1 }];
    const d = errorResponseOf(new PlatformError("invalid_answers", "x", { errors })).body.error.details;
    expect(d).toEqual({ errors });
  });

  it("a body's validation builds only the issues served (probe 7 N1: 299,520 unknown members)", () => {
    // 1,248 answers of the same 240 unknown names: under every parse limit, 299,520 unknown members
    const answer = Object.fromEntries(Array.from({ length: 240 }, (_, i) => [`k${i}`, 0]));
    const value = { answers: Array.from({ length: 1_248 }, () => ({ ...answer })) };
    let e: EdgeError | undefined;
    try {
      validateBody(SubmitBody, value);
    } catch (x) {
      e = x as EdgeError;
    }
    expect(e).toBeInstanceOf(EdgeError);
    expect(e!.code).toBe("invalid_request");
    // built capped, not cut afterwards: 20 issues; the items are checked one by one and the check
    // stops after the first answer's 242 issues (2 missing members, 240 unknown: probe D1-F3)
    expect(e!.details.errors).toHaveLength(MAX_DETAIL_ITEMS);
    expect(e!.details).toMatchObject({
      path: "$.answers[0].ordinal",
      errors_total_at_least: 242,
      truncated: true,
    });
    // served as before
    expect(errorResponseOf(e!).body.error.details).toEqual(e!.details);
  });
});
