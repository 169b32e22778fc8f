import { spawn, type ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { signalProcessGroup, stopProcessGroup } from "../src/processes.js";

const PROCESSES_DIST = fileURLToPath(new URL("../dist/processes.js", import.meta.url));

/**
 * True while a process with this pid exists and is not a zombie (a killed orphan stays a zombie
 * until the machine's init reaps it; it runs nothing any more).
 */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "EPERM";
  }
  try {
    // /proc/<pid>/stat: "pid (comm) state ..."
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3) !== "Z";
  } catch {
    return false; // gone between the probe and the read
  }
}

async function waitUntil(check: () => boolean, ms: number): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (check()) return true;
    await new Promise((r) => setTimeout(r, 25));
  }
  return check();
}

/**
 * Spawns, in its own process group, a Node process that starts a grandchild (`sleep`) and prints
 * the grandchild's pid; with `ignoreTerm` the child survives SIGTERM.
 */
async function spawnFamily(
  ignoreTerm = false,
): Promise<{ child: ChildProcess; grandchild: number; exited: Promise<unknown> }> {
  const script = `
    const { spawn } = require("node:child_process");
    ${ignoreTerm ? 'process.on("SIGTERM", () => {});' : ""}
    const g = spawn("sleep", ["60"], { stdio: "ignore" });
    console.log(g.pid);
    setInterval(() => {}, 1000);
  `;
  const child = spawn(process.execPath, ["-e", script], {
    detached: true,
    stdio: ["ignore", "pipe", "ignore"],
  });
  const exited = new Promise((resolve) => child.once("exit", resolve));
  const grandchild = await new Promise<number>((resolve, reject) => {
    child.stdout!.once("data", (d: Buffer) => resolve(Number(d.toString().trim())));
    child.once("exit", () => reject(new Error("the child exited before printing its grandchild's pid")));
  });
  return { child, grandchild, exited };
}

describe("process groups", () => {
  it("stopProcessGroup stops the child and the grandchildren it started", async () => {
    const { child, grandchild, exited } = await spawnFamily();
    expect(alive(grandchild)).toBe(true);
    await stopProcessGroup(child, exited, 5000);
    expect(child.signalCode).toBe("SIGTERM");
    expect(await waitUntil(() => !alive(grandchild), 5000)).toBe(true);
  });

  it("stopProcessGroup escalates to SIGKILL after the grace period", async () => {
    const { child, grandchild, exited } = await spawnFamily(true);
    const t0 = Date.now();
    await stopProcessGroup(child, exited, 300);
    expect(child.signalCode).toBe("SIGKILL");
    expect(Date.now() - t0).toBeGreaterThanOrEqual(250);
    expect(await waitUntil(() => !alive(grandchild), 5000)).toBe(true);
  });

  it("stopProcessGroup resolves only when no grandchild is left (one ignoring SIGTERM gets SIGKILL)", async () => {
    // The leader dies at SIGTERM; its grandchild ignores SIGTERM and would outlive it.
    const child = spawn("sh", ["-c", "(trap '' TERM; exec sleep 60) & echo $!; wait"], {
      detached: true,
      stdio: ["ignore", "pipe", "ignore"],
    });
    const exited = new Promise((resolve) => child.once("exit", resolve));
    const grandchild = await new Promise<number>((resolve) =>
      child.stdout!.once("data", (d: Buffer) => resolve(Number(d.toString().trim()))),
    );
    await new Promise((r) => setTimeout(r, 100)); // the trap is set before the signal
    expect(alive(grandchild)).toBe(true);
    const t0 = Date.now();
    await stopProcessGroup(child, exited, 400);
    expect(child.signalCode).toBe("SIGTERM");
    expect(alive(grandchild)).toBe(false);
    expect(Date.now() - t0).toBeGreaterThanOrEqual(350);
  });

  it("signalProcessGroup leaves an exited child alone and never throws", async () => {
    const child = spawn(process.execPath, ["-e", ""], { detached: true, stdio: "ignore" });
    await new Promise((r) => child.once("exit", r));
    expect(() => signalProcessGroup(child, "SIGKILL")).not.toThrow();
    expect(child.exitCode).toBe(0);
  });

  it("killOnExit kills a tracked child's group when its parent process exits", async () => {
    // A parent that starts a long-lived child under killOnExit, prints the child's pid, then exits.
    const parentScript = `
      import { spawn } from "node:child_process";
      import { killOnExit } from ${JSON.stringify(PROCESSES_DIST)};
      const c = spawn("sleep", ["60"], { detached: true, stdio: "ignore" });
      killOnExit(c);
      console.log(c.pid);
      setTimeout(() => process.exit(0), 100);
    `;
    const parent = spawn(process.execPath, ["--input-type=module", "-e", parentScript], {
      stdio: ["ignore", "pipe", "inherit"],
    });
    let out = "";
    parent.stdout!.on("data", (d: Buffer) => (out += d.toString()));
    const code = await new Promise((r) => parent.once("exit", r));
    expect(code).toBe(0);
    const pid = Number(out.trim());
    expect(pid).toBeGreaterThan(0);
    expect(await waitUntil(() => !alive(pid), 5000)).toBe(true);
  });

  it("killOnExit kills a tracked child's group when its parent is killed by SIGKILL (the reaper)", async () => {
    // SIGKILL runs no exit hook: only the reaper, which sees its pipe from the parent close, is left.
    const parentScript = `
      import { spawn } from "node:child_process";
      import { killOnExit } from ${JSON.stringify(PROCESSES_DIST)};
      const c = spawn("sleep", ["60"], { detached: true, stdio: "ignore" });
      killOnExit(c);
      console.log(c.pid);
      setInterval(() => {}, 1000);
    `;
    const parent = spawn(process.execPath, ["--input-type=module", "-e", parentScript], {
      stdio: ["ignore", "pipe", "inherit"],
    });
    let out = "";
    parent.stdout!.on("data", (d: Buffer) => (out += d.toString()));
    expect(await waitUntil(() => out.includes("\n"), 10_000)).toBe(true);
    const pid = Number(out.trim());
    expect(alive(pid)).toBe(true);
    parent.kill("SIGKILL");
    await new Promise((r) => parent.once("exit", r));
    expect(await waitUntil(() => !alive(pid), 8000)).toBe(true);
  });
});
