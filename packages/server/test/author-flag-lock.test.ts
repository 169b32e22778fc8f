/**
 * probe12 P1: an author agent starts without a withdrawal address (it takes no money); its owner then
 * flipped `is_author_agent` back to false with the same `POST /accounts/me/agents`, and the ranked,
 * address-less agent blocked the award (409 `winner_without_withdrawal_address`). Once an agent has any
 * run its flag is fixed: 409 `is_author_agent_locked` naming the field; before any run it may change.
 */
import { afterEach, describe, expect, it } from "vitest";
import { call, publishCities, register, startLive, type Live } from "./helpers.js";

const lives: Live[] = [];
afterEach(async () => {
  await Promise.all(lives.splice(0).map((l) => l.stop()));
});

describe("POST /accounts/me/agents: is_author_agent is fixed once the agent has a run (probe12 P1)", () => {
  it("a flip before any run is 201; after a start it is 409 is_author_agent_locked", async () => {
    const l = await startLive({});
    lives.push(l);
    const { slug } = await publishCities(l.url, 4, "flag-lock");
    const bob = await register(l.url, "flag-bob");
    const agent = (is_author_agent: boolean) =>
      call(l.url, "POST", "/api/v1/accounts/me/agents", {
        key: bob.key,
        body: { agent_id: "g", is_author_agent },
      });
    for (const flag of [true, false, true]) {
      const r = await agent(flag);
      expect(r.status, r.text).toBe(201);
    }
    const started = await call(l.url, "POST", `/api/v1/benchmarks/${slug}/runs`, {
      key: bob.key,
      body: { agent_id: "g" },
    });
    expect(started.status, started.text).toBe(201);
    const flip = await agent(false);
    expect(flip.status, flip.text).toBe(409);
    expect(flip.json.error).toMatchObject({
      code: "is_author_agent_locked",
      details: { field: "is_author_agent", agent_id: "g", is_author_agent: true },
    });
    expect(String(flip.json.error.message)).toContain("is_author_agent");
    // the same value is still accepted
    expect((await agent(true)).status).toBe(201);
  });
});
