/**
 * A refusal's `details` lists are capped (probe4 submit-cpu: a 422 listing 130,000 duplicate
 * answers was 13.8 MB): the first MAX_DETAIL_ITEMS items, the full count beside them.
 */
import { PlatformError } from "@bench-bounty/platform";
import { describe, expect, it } from "vitest";
import { errorResponseOf, MAX_DETAIL_ITEMS } from "../src/errors.js";

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
});
