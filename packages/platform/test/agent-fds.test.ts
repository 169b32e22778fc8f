/**
 * probe30 B-F1: the runner passed every descriptor it inherited open (`exec 300<store/platform.sqlite`
 * in the shell that started it, a harness's pipe) to the agent, bubblewrap or not: the agent read the
 * store's gold through `/proc/self/fd/300` while the store's path was hidden. The runner now closes what
 * it inherited across exec before it starts an agent.
 */
import { spawn } from "node:child_process";
import { chmodSync, closeSync, mkdirSync, openSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { NO_SANDBOX_WARNING } from "../src/agent-process.js";
import { cleanup, tempDir } from "./helpers.js";

afterEach(cleanup);

const FIXTURE = fileURLToPath(new URL("./fixtures/agent-fds.ts", import.meta.url));
const TSX = new URL("../../../node_modules/tsx/dist/loader.mjs", import.meta.url).href;

/** Runs `agent` through runAgentProcess in a node process (environment `env`) that inherited `file` open at each of `fds`. */
function runWithInherited(
  agent: string,
  file: string,
  fds: number[],
  env: NodeJS.ProcessEnv = process.env,
): Promise<{ code: number | null; out: string; err: string }> {
  const fd = openSync(file, "r");
  const stdio: ("pipe" | "ignore" | number)[] = ["pipe", "pipe", "pipe"];
  for (const n of fds) {
    while (stdio.length < n) stdio.push("ignore");
    stdio[n] = fd;
  }
  const child = spawn(process.execPath, ["--import", TSX, FIXTURE, agent], { stdio, env });
  closeSync(fd);
  let out = "";
  let err = "";
  child.stdout!.on("data", (b: Buffer) => (out += b.toString()));
  child.stderr!.on("data", (b: Buffer) => (err += b.toString()));
  return new Promise((done) => child.on("close", (code) => done({ code, out, err })));
}

describe("an agent inherits no descriptor of the runner's (probe30 B-F1)", () => {
  it("a file the runner inherited open at fds 30 and 300 is not open in the agent: it cannot read it", async () => {
    const secret = join(tempDir(), "gold.txt");
    writeFileSync(secret, "THE-GOLD\n");
    const agent =
      "for n in 30 300; do cat /proc/self/fd/$n 2>/dev/null || echo closed-$n; done; " +
      `ls -l /proc/self/fd | grep -c ${JSON.stringify(secret)}; true`;
    const r = await runWithInherited(agent, secret, [30, 300]);
    expect(r.code, r.err).toBe(0);
    expect(r.out.split("\n")).toEqual(["closed-30", "closed-300", "0", ""]);
  });

  it("without bubblewrap too, and the runner's warning says the agent reads the runner's environment and may outlive the run (probe30 B-F2, B-F3)", async () => {
    const secret = join(tempDir(), "gold.txt");
    writeFileSync(secret, "THE-GOLD\n");
    const bin = join(tempDir(), "bin");
    mkdirSync(bin);
    writeFileSync(join(bin, "bwrap"), "#!/bin/sh\nexit 1\n"); // a bwrap that cannot sandbox
    chmodSync(join(bin, "bwrap"), 0o755);
    const r = await runWithInherited("cat /proc/self/fd/30 2>/dev/null || echo closed-30", secret, [30], {
      ...process.env,
      PATH: `${bin}:${process.env.PATH ?? ""}`,
    });
    expect(r.code, r.err).toBe(0);
    expect(r.out).toBe("closed-30\n");
    expect(r.err).toContain(NO_SANDBOX_WARNING);
    expect(NO_SANDBOX_WARNING).toMatch(/environ.*outlive the run/);
  });
});
