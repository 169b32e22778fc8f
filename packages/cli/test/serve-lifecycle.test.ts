/**
 * `serve` does not outlive whoever started it (probe of issue 15: killing the `npx` / `npm run`
 * wrapper around serve left it running): it stops cleanly on SIGTERM and SIGINT, and with
 * `--exit-with-parent` (the demo passes it) when its parent dies without passing a signal on.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const here = dirname(fileURLToPath(import.meta.url));
const bin = join(here, "..", "dist", "index.js");

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ESRCH") return false;
    throw e;
  }
}

async function until(f: () => boolean, ms: number): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (f()) return true;
    await new Promise((r) => setTimeout(r, 50));
  }
  return f();
}

/** Starts serve directly; resolves once it listens. */
function startServe(extra: string[] = []) {
  const store = mkdtempSync(join(tmpdir(), "bb-cli-life-"));
  const child = spawn(process.execPath, [bin, "serve", "--store", store, "--port", "0", ...extra], {
    stdio: ["ignore", "pipe", "pipe"],
    env: { PATH: process.env.PATH! },
  });
  let out = "";
  child.stdout.on("data", (d: Buffer) => (out += d.toString()));
  const exited = new Promise<{ code: number | null; signal: string | null }>((res) =>
    child.once("exit", (code, signal) => res({ code, signal })),
  );
  return { child, exited, out: () => out, listening: until(() => /listening on/.test(out), 30_000) };
}

describe("serve's lifecycle", { timeout: 90_000 }, () => {
  it.each(["SIGTERM", "SIGINT"] as const)("stops cleanly on %s (exit 0, says why)", async (sig) => {
    const s = startServe();
    expect(await s.listening, s.out()).toBe(true);
    s.child.kill(sig);
    const r = await s.exited;
    expect(r).toEqual({ code: 0, signal: null });
    expect(s.out()).toContain(`bench-bounty serve: ${sig}: stopping`);
  });

  it.each([
    ["with --exit-with-parent", ["--exit-with-parent"], {}],
    ["started by npm / npx (npm_command set), without the flag", [], { npm_command: "exec" }],
  ])("%s, stops when its parent is killed with SIGKILL (no signal passed on)", async (_what, flags, env) => {
    const dir = mkdtempSync(join(tmpdir(), "bb-cli-life-"));
    const log = join(dir, "serve.log");
    // A wrapper that starts serve in its own process group (as the demo does), then is SIGKILLed.
    const wrapper = `
      const { spawn } = require("node:child_process");
      const fs = require("node:fs");
      const out = fs.openSync(${JSON.stringify(log)}, "a");
      const c = spawn(process.execPath, [${JSON.stringify(bin)}, "serve", "--store", ${JSON.stringify(join(dir, "st"))}, "--port", "0", ...${JSON.stringify(flags)}],
        { stdio: ["ignore", out, out], detached: true, env: { PATH: process.env.PATH, ...${JSON.stringify(env)} } });
      process.stdout.write(String(c.pid) + "\\n");
      setInterval(() => {}, 1000);
    `;
    const parent = spawn(process.execPath, ["-e", wrapper], {
      stdio: ["ignore", "pipe", "inherit"],
      env: { PATH: process.env.PATH! },
    });
    let pidText = "";
    parent.stdout.on("data", (d: Buffer) => (pidText += d.toString()));
    expect(await until(() => /\d+\n/.test(pidText), 10_000)).toBe(true);
    const servePid = Number(pidText.trim());
    expect(await until(() => existsSync(log) && /listening on/.test(readFileSync(log, "utf8")), 30_000)).toBe(
      true,
    );
    parent.kill("SIGKILL");
    expect(await until(() => !alive(servePid), 10_000), readFileSync(log, "utf8")).toBe(true);
    expect(readFileSync(log, "utf8")).toContain("bench-bounty serve: parent exited: stopping");
  });
});
