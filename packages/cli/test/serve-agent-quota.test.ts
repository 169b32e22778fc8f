/**
 * `serve --agents-per-account N` / `--agents-per-benchmark N`: the operator sets the agent quota
 * (default 20 per account, 3 of them per benchmark; probe10 R9). Bad values are refused before
 * anything starts, naming the flag.
 */
import { describe, expect, it } from "vitest";
import { expectFlagRefused, post, serveHelp, useServe } from "./serve-process.js";

const serve = useServe("bb-cli-agents-");

describe("serve --agents-per-account", { timeout: 90_000 }, () => {
  it("is documented in serve --help", () => {
    const help = serveHelp();
    expect(help).toMatch(/--agents-per-account <n> agents one account may register \(default 20\)/);
    expect(help).toMatch(/--agents-per-benchmark <n> agents of one account that may start runs/);
  });

  it.each(["0", "1.5", "abc"])("refuses %j naming the flag, before it listens", (bad) => {
    const flag = "--agents-per-account";
    expectFlagRefused("bb-cli-agents-", flag, bad, `${flag} must be an integer 1..999999999`);
  });

  it("N = 2: an account's third agent is 429 agent_quota_exceeded naming agents_per_account", async () => {
    const base = await serve(["--agents-per-account", "2"]);
    const acct = await post(base, "/api/v1/accounts", { name: "agents-cli" });
    expect(acct.status, JSON.stringify(acct.json)).toBe(201);
    const key = acct.json.api_key as string;
    expect((await post(base, "/api/v1/accounts/me/agents", { agent_id: "agents-cli-2" }, key)).status).toBe(
      201,
    );
    const third = await post(base, "/api/v1/accounts/me/agents", { agent_id: "agents-cli-3" }, key);
    expect(third.status).toBe(429);
    expect(third.json.error).toMatchObject({
      code: "agent_quota_exceeded",
      details: { limit: "agents_per_account", max_agents: 2 },
    });
  });
});
