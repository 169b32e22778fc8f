/**
 * probe38 V-N4: `bounty:status` said only "The lock of bounty N verifies." for a bounty whose award window
 * is under MIN_AWARD_WINDOW_SECONDS, which the bench-bounty service refuses to attach
 * (`award_window_too_short`); only `bounty:lock` warned. Now the status prints the same warning (one
 * function, `warnShortAwardWindow` of deploy/lib/terms.ts) beside its verdict.
 */
import fs from "node:fs";
import { expect } from "chai";
import type { DevChain } from "@bench-bounty/devchain";
import { warnShortAwardWindow } from "../lib/terms";
import { expectOk, localDeploymentFile, localRunner, lockCommand, startChain, tempDir } from "./helpers";

describe("bounty:status warns of an award window the service refuses (probe38 V-N4)", function () {
  let chain: DevChain;
  let dir: string;
  let run: ReturnType<typeof localRunner>;

  before(async function () {
    chain = await startChain();
    dir = tempDir();
    run = localRunner(chain, localDeploymentFile(dir, chain));
  });
  after(async function () {
    await chain?.stop();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  it("a bounty locked with a 3599 s window: the status warns with bounty:lock's words beside 'verifies'", async function () {
    const args = await lockCommand(chain, dir);
    const at = args.indexOf("--award-deadline");
    const closesAt = BigInt(args[args.indexOf("--closes-at") + 1]!);
    args[at + 1] = String(closesAt + 3599n);
    await chain.mintUsdc(chain.accounts[0]!.address, 1_000_000n); // the 1 USDC pool
    const locked = await run(args);
    const id = /Bounty (\d+) locked/.exec(expectOk(locked))?.[1];
    expect(id, locked.stdout).to.be.a("string");

    const status = await run(["bounty:status", "--id", id!]);
    expect(expectOk(status)).to.include(`The lock of bounty ${id} verifies.`);
    expect(status.stderr).to.include(
      "Warning: the award window (3599 s from its close to its award deadline) is shorter than 3600 s: the bench-bounty service refuses to attach this bounty (award_window_too_short), since it could not award it in time.",
    );
  });

  it("one function words both tasks' warning; none at 3600 s", function () {
    const warn = console.warn;
    console.warn = () => undefined;
    try {
      const lock = warnShortAwardWindow(0n, 3599n, "lock")!;
      const status = warnShortAwardWindow(0n, 3599n, "status")!;
      const shared =
        "is shorter than 3600 s: the bench-bounty service refuses to attach this bounty (award_window_too_short)";
      expect(lock).to.include(shared);
      expect(status).to.include(shared);
      expect(warnShortAwardWindow(0n, 3600n, "status")).to.equal(null);
    } finally {
      console.warn = warn;
    }
  });
});
