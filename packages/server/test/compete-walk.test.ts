/**
 * probe36 A-F2: the walk the detail prints (`how_to_compete`), pasted step by step into a shell as a new
 * competitor would, on a service that pays prizes: its run start was refused `withdrawal_address_required`
 * (no step set the address; no step got a key). Every step up to the run start now works as printed.
 */
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { startDevChain, type DevChain } from "@bench-bounty/devchain";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, publishCities, startLive, type Live, devChainConfig } from "./helpers.js";

let dc: DevChain;
let live: Live;
beforeAll(async () => {
  dc = await startDevChain();
  live = await startLive({
    platform: {
      chain: devChainConfig(dc, 0),
    },
  });
}, 240_000);
afterAll(async () => {
  await live?.stop();
  await dc?.stop();
});

/**
 * Runs one printed command in `sh`, as pasted, with `env` added; its stdout parsed as JSON (asynchronously:
 * the server answering it runs in this process).
 */
async function paste(command: string, env: Record<string, string> = {}): Promise<any> {
  const r = await promisify(execFile)("sh", ["-c", command], {
    env: { ...process.env, ...env },
    encoding: "utf8",
  });
  return JSON.parse(r.stdout);
}

describe("the printed walk to compete (probe36 A-F2)", { timeout: 120_000 }, () => {
  it("pasted step by step, a new competitor gets a key, sets an address and starts a run", async () => {
    const { slug } = await publishCities(live.url, 4, "walk");
    const detail = await call(live.url, "GET", `/api/v1/benchmarks/${slug}`);
    const steps = (detail.json.how_to_compete as string)
      .split("\n")
      .filter((l) => /^\d+\. /.test(l))
      .map((l) => l.slice(l.indexOf("curl ")));
    const start = steps.findIndex((c) => c.includes(`/benchmarks/${slug}/runs `));
    expect(start).toBeGreaterThan(0);
    const env: Record<string, string> = {};
    let started: any;
    for (const command of steps.slice(0, start + 1)) {
      const out = await paste(command.replace("0x...", dc.accounts[7]!.address), env);
      expect(out.error, command).toBeUndefined();
      if (typeof out.api_key === "string") env.BENCH_BOUNTY_API_KEY = out.api_key;
      started = out;
    }
    expect(env.BENCH_BOUNTY_API_KEY ?? "", JSON.stringify(steps)).toMatch(/^bbk_/);
    expect(started.run.id).toMatch(/^run-/);
  });
});
