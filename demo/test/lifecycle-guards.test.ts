/**
 * Guards that run before and around the demo: a bad `--out` is refused before anything starts, and the
 * demo stops everything it started when its parent process dies.
 */
import { REPO_ROOT } from "@bench-bounty/devchain";
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it, vi } from "vitest";
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

/** A server on 127.0.0.1 at a port the system picks whose next two ports are free now, and that port. */
async function holdPortBeforeTwoFree(): Promise<{ server: Server; port: number }> {
  for (let i = 0; i < 50; i++) {
    const server = createServer();
    const port = await new Promise<number>((ok) =>
      server.listen(0, "127.0.0.1", () => ok((server.address() as { port: number }).port)),
    );
    if (port <= 65531) {
      const free = await Promise.all(
        [port - 1, port - 2].map(
          (p) =>
            new Promise<boolean>((ok) => {
              const probe = createServer();
              probe.once("error", () => ok(false));
              probe.listen(p, "127.0.0.1", () => probe.close(() => ok(true)));
            }),
        ),
      );
      if (port >= 1026 && free.every(Boolean)) return { server, port };
    }
    await new Promise<void>((ok) => server.close(() => ok()));
  }
  throw new Error("no port with two free ports below it");
}

/** An --out holding an earlier run's three outputs. */
function earlierOutputs(): string {
  const out = mkdtempSync(join(dir, "out-"));
  for (const name of ["pack.json", "verification.json", "report.md"])
    writeFileSync(join(out, name), `earlier ${name}`);
  return out;
}

// probe39 B-N3: a second demo on the ports of a running one ran the 76 s set-up, then failed in phase 1
// and wrote a FAILED report.md beside the earlier run's pack.json and verification.json
describe("--base-port's ports are probed before the set-up; --out holds only this run's outputs", () => {
  it("npm run demo: a busy port (the indexer's, <base>+1) is refused at once naming it, before the set-up, --out untouched", async () => {
    const { server, port } = await holdPortBeforeTwoFree();
    const base = port - 1;
    try {
      // an npx that records being run: the set-up runs `npx pnpm@... install`
      const bin = mkdtempSync(join(dir, "bin-"));
      const marker = join(bin, "npx-ran");
      writeFileSync(join(bin, "npx"), `#!/bin/sh\necho "$@" > '${marker}'\nexit 1\n`, { mode: 0o755 });
      const out = earlierOutputs();
      const env: NodeJS.ProcessEnv = { ...process.env, PATH: `${bin}:${process.env.PATH ?? ""}` };
      delete env.DEMO_SKIP_SETUP;
      const r = spawnSync(
        process.execPath,
        [join(REPO_ROOT, "scripts", "demo.mjs"), "--base-port", String(base), "--out", out],
        { cwd: REPO_ROOT, env, encoding: "utf8", timeout: 60_000 },
      );
      expect(existsSync(marker), "the set-up ran").toBe(false);
      expect(r.status, r.stderr).toBe(1);
      expect(r.stderr).toBe(
        `error: --base-port ${base}: 127.0.0.1:${port} (the indexer) is in use by another process: stop it, or choose another --base-port ` +
          `(the demo listens on ${base}, ${base + 1} and ${base + 2})\n`,
      );
      expect(r.stdout).toBe("");
      expect(readFileSync(join(out, "pack.json"), "utf8")).toBe("earlier pack.json");
      expect(readFileSync(join(out, "report.md"), "utf8")).toBe("earlier report.md");
    } finally {
      await new Promise<void>((ok) => server.close(() => ok()));
    }
  });

  it("runDemo (DEMO_SKIP_SETUP=1): the same refusal, nothing started, --out untouched", async () => {
    const { server, port } = await holdPortBeforeTwoFree();
    try {
      const out = earlierOutputs();
      const lines: string[] = [];
      await expect(
        runDemo(parseOptions(["--base-port", String(port - 1), "--out", out]), {
          log: (l) => lines.push(l),
          registry: new ProcessRegistry(),
        }),
      ).rejects.toThrow(
        `--base-port ${port - 1}: 127.0.0.1:${port} (the indexer) is in use by another process`,
      );
      expect(lines).toEqual([]);
      expect(readFileSync(join(out, "verification.json"), "utf8")).toBe("earlier verification.json");
    } finally {
      await new Promise<void>((ok) => server.close(() => ok()));
    }
  });

  it("a run that fails writes its FAILED report.md with no earlier run's pack.json or verification.json beside it", async () => {
    const out = earlierOutputs();
    mkdirSync(join(out, "keep"));
    const lines: string[] = [];
    // every node the demo starts fails at once: phase 1 (the hardhat node) fails in a second or two
    vi.stubEnv("NODE_OPTIONS", `--require ${join(dir, "no-such-preload.cjs")}`);
    try {
      const result = await runDemo(parseOptions(["--out", out]), {
        log: (l) => lines.push(l),
        registry: new ProcessRegistry(),
      });
      expect(result.ok).toBe(false);
    } finally {
      vi.unstubAllEnvs();
    }
    expect(lines).toContain(
      `  removed an earlier run's outputs from ${out}: pack.json, verification.json, report.md (this run writes its own)`,
    );
    expect(readFileSync(join(out, "report.md"), "utf8")).toMatch(/FAILED/);
    expect(existsSync(join(out, "pack.json"))).toBe(false);
    expect(existsSync(join(out, "verification.json"))).toBe(false);
    expect(existsSync(join(out, "keep"))).toBe(true); // nothing else of --out is touched
  });

  // probe39 V-N1: a directory named report.md: the earlier pack was removed first, then Node's raw EISDIR
  it("an output's name taken by a directory is refused naming --out, before anything is removed or started", async () => {
    const out = earlierOutputs();
    rmSync(join(out, "report.md"));
    mkdirSync(join(out, "report.md"));
    const lines: string[] = [];
    await expect(
      runDemo(parseOptions(["--out", out]), { log: (l) => lines.push(l), registry: new ProcessRegistry() }),
    ).rejects.toThrow(
      `--out ${out}: ${join(out, "report.md")} is not a file (a directory), and the demo writes its report.md there`,
    );
    expect(lines).toEqual([]);
    expect(readFileSync(join(out, "pack.json"), "utf8")).toBe("earlier pack.json");
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
