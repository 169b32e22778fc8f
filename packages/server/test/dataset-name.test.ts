/**
 * probe24: `POST /api/v1/datasets` stored a name holding ESC; a name is one line of plain text, so a
 * character a terminal acts on (evidence's `terminalControlPattern`) is refused naming the field, as the
 * CLI refuses it (the platform's `validateDataset`, the one place of the rule). Nothing is stored.
 */
import { describe, expect, it } from "vitest";
import { call, register, useLive } from "./helpers.js";

const live = useLive();

describe("POST /datasets: a name with a terminal control character", () => {
  it("is 422 invalid_dataset naming the field name; nothing stored", async () => {
    const { key } = await register(live.url, "ctl-name");
    const rows = [{ decision_ts: "2026-01-01", payload: { a: 1 }, label: "x" }];
    const r = await call(live.url, "POST", "/api/v1/datasets", {
      key,
      body: { name: "evil\u001b[31mred", rows },
    });
    expect(r.status, r.text).toBe(422);
    expect(r.json.error.code).toBe("invalid_dataset");
    expect(r.json.error.details.errors).toMatchObject([
      {
        field: "name",
        code: "invalid_option",
        message: "name holds the control character U+001B at position 4 (a name is one line of plain text)",
      },
    ]);
    const mine = await call(live.url, "GET", "/api/v1/datasets/mine", { key });
    expect(mine.status, mine.text).toBe(200);
    expect(mine.json.datasets).toEqual([]);
    // a plain name is stored
    const ok = await call(live.url, "POST", "/api/v1/datasets", { key, body: { name: "plain red", rows } });
    expect(ok.status, ok.text).toBe(201);
  });
});
