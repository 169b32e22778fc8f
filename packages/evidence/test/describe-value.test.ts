/** probe35 B-N1: a JSON object where another type is due was named "Object object" ("got Object object"). */
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { describeValue } from "../src/errors.js";
import { schemaProblems } from "../src/schemas.js";

describe("describeValue names a value's type in words (probe35 B-N1)", () => {
  it("a JSON object is 'an object', as an array is 'an array'", () => {
    expect(describeValue({})).toBe("an object");
    expect(describeValue(Object.create(null))).toBe("an object");
    expect(describeValue([])).toBe("an array");
    expect(describeValue(new Map())).toBe("a Map object");
  });

  it("a schema problem says 'got an object'", () => {
    expect(schemaProblems(z.string(), {})[0]?.message).toBe("expected string, got an object");
  });
});
