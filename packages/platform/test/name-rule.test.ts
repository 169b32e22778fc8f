/**
 * probeD1 F15: account names and agent ids must start with a letter or digit (`-x123`, `_x123`, `.x123`
 * are refused, `x123-` passes), and the refusal says so: it read "1-64 characters: letters, digits,
 * '.', '_', '-'", which each refused value is.
 */
import { afterEach, describe, expect, it } from "vitest";
import { cleanup, openTemp, rejection } from "./helpers.js";

afterEach(cleanup);

const RULE = "1-64 characters: letters, digits, '.', '_', '-', starting with a letter or digit";

describe("the name rule's message (probeD1 F15)", () => {
  it("an account name or agent id not starting with a letter or digit is refused with the whole rule", async () => {
    const platform = await openTemp();
    try {
      for (const bad of ["-x123", "_x123", ".x123", "-", "."]) {
        const e = await rejection(platform.real.createAccount({ name: bad }));
        expect(e.code).toBe("invalid_option");
        expect(e.details).toMatchObject({ field: "name" });
        expect(e.message).toBe(`name must be ${RULE}`);
      }
      const ok = await platform.real.createAccount({ name: "x123-" });
      const p = await platform.real.authenticate(ok.api_key);
      for (const bad of ["-x123", "_x123", ".x123"]) {
        const e = await rejection(platform.real.registerAgent(p, bad));
        expect(e.code).toBe("invalid_option");
        expect(e.details).toMatchObject({ field: "agent_id" });
        expect(e.message).toBe(`agent_id must be ${RULE}`);
      }
      expect((await platform.real.registerAgent(p, "y456.")).agent_id).toBe("y456.");
    } finally {
      await platform.close();
    }
  });
});
