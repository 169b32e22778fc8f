/**
 * Guards that run before and around the demo: a bad `--out` is refused before anything starts, and the
 * demo stops everything it started when its parent process dies.
 */
import { spawn } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { parseOptions } from "../src/options.mjs";
import { ProcessRegistry } from "../src/processes.js";
import { runDemo } from "../src/run.js";

const dir = mkdtempSync(join(tmpdir(), "demo-guards-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function waitFor(pred: () => boolean, ms: number): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (pred()) return true;
    await new Promise((r) => setTimeout(r, 100));
  }
  return pred();
}

describe("--out is checked before anything starts", () => {
  it("refuses an --out under a regular file (and under /proc) naming --out, with nothing started", async () => {
    const file = join(dir, "afile");
    writeFileSync(file, "x");
    const outs = [join(file, "x")];
    if (existsSync("/proc/self")) outs.push("/proc/nope");
    for (const out of outs) {
      const lines: string[] = [];
      const registry = new ProcessRegistry();
      const started = Date.now();
      await expect(
        runDemo(parseOptions(["--out", out]), { log: (l) => lines.push(l), registry }),
      ).rejects.toThrow(/^--out /);
      expect(Date.now() - started).toBeLessThan(2000);
      expect(lines).toEqual([]); // no phase ran, no store, no chain
    }
  });
});

describe("parent death", () => {
  it("a process with the demo's signal handlers stops everything when its parent is killed", async () => {
    const marker = join(dir, "stopped");
    const processes = fileURLToPath(new URL("../src/processes.ts", import.meta.url));
    const child = join(dir, "child.mts");
    writeFileSync(
      child,
      `import { ProcessRegistry } from ${JSON.stringify(processes)};
import { writeFileSync } from "node:fs";
const registry = new ProcessRegistry();
registry.addStop("marker", () => writeFileSync(${JSON.stringify(marker)}, "stopped"));
registry.installSignalHandlers(() => {});
writeFileSync(${JSON.stringify(marker)} + ".ready", "ready");
setInterval(() => {}, 1000);
`,
    );
    // parent: starts the child and prints its pid, then idles until killed with SIGKILL (no cleanup)
    const parent = spawn(
      process.execPath,
      [
        "-e",
        `const c = require("node:child_process").spawn(process.execPath, ["--import", "tsx", ${JSON.stringify(child)}], { stdio: "ignore" });
         console.log(c.pid); setInterval(() => {}, 1000);`,
      ],
      { stdio: ["ignore", "pipe", "inherit"], cwd: fileURLToPath(new URL("..", import.meta.url)) },
    );
    const pid = await new Promise<number>((res) =>
      parent.stdout!.once("data", (d) => res(Number(String(d).trim()))),
    );
    const childAlive = () => {
      try {
        process.kill(pid, 0);
        return true;
      } catch {
        return false;
      }
    };
    // let the child load and install its handlers (it says so), however busy the machine is
    expect(await waitFor(() => existsSync(`${marker}.ready`), 20_000)).toBe(true);
    expect(childAlive()).toBe(true);
    parent.kill("SIGKILL");
    expect(await waitFor(() => !childAlive(), 10_000)).toBe(true);
    expect(readFileSync(marker, "utf8")).toBe("stopped");
  }, 45_000);

  it("a child the registry spawned dies with the demo even when the demo is killed by SIGKILL", async () => {
    const processes = fileURLToPath(new URL("../src/processes.ts", import.meta.url));
    const demo = join(dir, "demo-sigkill.mts");
    writeFileSync(
      demo,
      `import { ProcessRegistry } from ${JSON.stringify(processes)};
const registry = new ProcessRegistry();
const c = registry.spawn("sleeper", "sleep", ["60"]);
console.log(c.child.pid);
setInterval(() => {}, 1000);
`,
    );
    const proc = spawn(process.execPath, ["--import", "tsx", demo], {
      stdio: ["ignore", "pipe", "inherit"],
      cwd: fileURLToPath(new URL("..", import.meta.url)),
    });
    const pid = await new Promise<number>((res) =>
      proc.stdout!.once("data", (d) => res(Number(String(d).trim()))),
    );
    const sleeperAlive = () => {
      try {
        process.kill(pid, 0);
        return !readFileSync(`/proc/${pid}/stat`, "utf8").includes(") Z ");
      } catch {
        return false;
      }
    };
    expect(sleeperAlive()).toBe(true);
    proc.kill("SIGKILL"); // no exit hook, no signal handler runs
    expect(await waitFor(() => !sleeperAlive(), 15_000)).toBe(true);
  }, 45_000);
});
