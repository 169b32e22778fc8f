/**
 * A wrong command line (a malformed or missing parameter, an unknown one, an
 * unknown network) is refused by Hardhat's own argument parsing before any task
 * runs. It must read like the tasks' refusals: exit code 1, one `Error HHnnn: ...`
 * line and no stack trace, also where Hardhat shows stack traces by default
 * (`CI=true`, Linux without a display) — deploy/lib/errors.ts
 * `endArgumentErrorsWithoutStack`. `--show-stack-traces` still shows them.
 */
import fs from "node:fs";
import { expect } from "chai";
import type { DevChain } from "@bench-bounty/devchain";
import { blockNumber, localDeploymentFile, hardhat, startChain, tempDir, type Run } from "./helpers";

/** Hardhat colours its error line when `CI` is set (picocolors); compare plain text. */
function plain(text: string): string {
  return text.replace(/\x1b\[[0-9;]*m/g, "");
}

/** Exit code 1, exactly one non-empty stderr line matching `line`, no `at ...` frame anywhere. */
function expectOneLineRefusal(run: Run, line: RegExp): void {
  const stderr = plain(run.stderr);
  const stdout = plain(run.stdout);
  expect(run.code, `exit code; stdout:\n${stdout}\nstderr:\n${stderr}`).to.equal(1);
  const lines = stderr.split("\n").filter((l) => l.trim() !== "");
  expect(lines, `stderr:\n${stderr}`).to.have.length(1);
  expect(lines[0]).to.match(line);
  expect(stderr, "no stack frame on stderr").not.to.match(/^\s+at /m);
  expect(stdout, "no stack frame on stdout").not.to.match(/^\s+at /m);
}

describe("wrong command-line arguments (Hardhat's own parsing)", function () {
  let chain: DevChain;
  let dir: string;
  let book: string;
  /** `hardhat <args>` against the devchain's RPC URL; `args` carry their own `--network`. */
  const run = (args: string[], env: Record<string, string | undefined>) =>
    hardhat(args, {
      LOCAL_RPC_URL: chain.rpcUrl,
      BENCH_BOUNTY_LOCAL_DEPLOYMENT: book,
      HARDHAT_SHOW_STACK_TRACES: undefined,
      ...env,
    });

  before(async function () {
    chain = await startChain();
    dir = tempDir();
    book = localDeploymentFile(dir, chain);
  });
  after(async function () {
    await chain?.stop();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  const cases: { name: string; args: string[]; line: RegExp }[] = [
    {
      name: "local:increase-time --seconds -5 (HH301)",
      args: ["local:increase-time", "--network", "localhost", "--seconds", "-5"],
      line: /^Error HH301: Invalid value -5 for argument seconds of type int$/,
    },
    {
      name: "local:increase-time --seconds abc (HH301)",
      args: ["local:increase-time", "--network", "localhost", "--seconds", "abc"],
      line: /^Error HH301: Invalid value abc for argument seconds of type int$/,
    },
    {
      name: "bounty:status without --id (HH306)",
      args: ["bounty:status", "--network", "localhost"],
      line: /^Error HH306: The '--id' parameter of task 'bounty:status' expects a value, but none was passed\.$/,
    },
    {
      name: "bounty:lock --bogus (HH305)",
      args: ["bounty:lock", "--network", "localhost", "--bogus"],
      line: /^Error HH305: Unrecognized param --bogus$/,
    },
    {
      name: "--network nosuchnet bounty:status --id 1 (HH100)",
      args: ["--network", "nosuchnet", "bounty:status", "--id", "1"],
      line: /^Error HH100: Network nosuchnet doesn't exist$/,
    },
  ];

  for (const env of [
    { label: "CI=true", vars: { CI: "true" } },
    { label: "CI unset", vars: { CI: undefined } },
  ]) {
    for (const c of cases) {
      it(`${c.name}: one line, exit 1, no stack trace (${env.label})`, async function () {
        const before = await blockNumber(chain);
        expectOneLineRefusal(await run(c.args, env.vars), c.line);
        expect(await blockNumber(chain), "nothing was sent").to.equal(before);
      });
    }
  }

  it("--show-stack-traces still prints the stack of an argument error", async function () {
    const r = await run(["--show-stack-traces", "bounty:status", "--network", "localhost"], {
      CI: undefined,
    });
    expect(r.code).to.equal(1);
    const stderr = plain(r.stderr);
    expect(stderr).to.match(/^Error HH306: /m);
    expect(stderr).to.match(/^HardhatError: HH306: /m);
    expect(stderr).to.match(/^\s+at /m);
  });
});
