/**
 * Issue 13 re-probe O6: the store was created world-readable (directory 0755, `platform.sqlite`, its
 * `-wal` / `-shm` and the runner's checkpoints 0644), so any local user read every private gold label.
 * What the store creates is now its owner's only (directories 0700, files 0600), and opening a store
 * that others can reach warns on stderr naming the `chmod` that fixes it.
 */
import { execFileSync } from "node:child_process";
import { chmodSync, readdirSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { Platform } from "../src/platform.js";
import { runBenchmark } from "../src/runner.js";
import { STORE_DIR_MODE, STORE_FILE_MODE, warnIfExposed, writeFileDurably } from "../src/store.js";
import {
  cities,
  cleanup,
  CITIES_PUBLISH,
  cliAccount,
  Harness,
  promptAgent,
  runCli,
  tempDir,
} from "./helpers.js";

afterEach(() => {
  vi.restoreAllMocks();
  return cleanup();
});

const mode = (path: string): string => (statSync(path).mode & 0o777).toString(8);

/** A store made at `dir`, then opened to others (directory 755, database 644), as old versions left it. */
async function exposedStore(dir: string): Promise<string> {
  await (await Platform.open({ dir })).close();
  chmodSync(dir, 0o755);
  chmodSync(join(dir, "platform.sqlite"), 0o644);
  return dir;
}

/** What this process writes on stderr from now on (until `vi.restoreAllMocks()`). */
function captureStderr(): string[] {
  const lines: string[] = [];
  vi.spyOn(process.stderr, "write").mockImplementation((chunk: string | Uint8Array) => {
    lines.push(String(chunk));
    return true;
  });
  return lines;
}

describe("--api-key's help prefers the environment (re-probe O7)", () => {
  it("says BENCH_BOUNTY_API_KEY is preferred, and why", async () => {
    const r = await runCli("run", "--help");
    expect(r.out.replace(/\s+/g, " ")).toMatch(
      /--api-key <key> +act as this account; prefer the env BENCH_BOUNTY_API_KEY: a key in the arguments is visible to every local user in ps/,
    );
  });
});

describe("the store is its owner's only (re-probe O6)", () => {
  it("creates its directory, runs/ 0700 and platform.sqlite, -wal, -shm, checkpoints 0600", async () => {
    const dir = join(tempDir(), "a", "store"); // two levels created
    const h = new Harness(await Platform.open({ dir }));
    try {
      const ds = await h.createDataset(cities(4));
      const { slug } = await h.publish(ds.dataset_id, CITIES_PUBLISH);
      await runBenchmark(await h.backend("bot"), slug, "bot", {
        kind: "function",
        name: "bot",
        answer: (t) => promptAgent(t.prompt),
      });
      expect(mode(dir)).toBe("700");
      expect(mode(join(dir, ".."))).toBe("700");
      expect(mode(join(dir, "runs"))).toBe("700");
      for (const f of ["platform.sqlite", "platform.sqlite-wal", "platform.sqlite-shm"])
        expect([f, mode(join(dir, f))]).toEqual([f, "600"]);
      const checkpoints = readdirSync(join(dir, "runs"));
      expect(checkpoints.length).toBeGreaterThan(0);
      for (const f of checkpoints) expect([f, mode(join(dir, "runs", f))]).toEqual([f, "600"]);
    } finally {
      await h.close();
    }
  });

  it("the CLI creates --store 0700 with platform.sqlite 0600 (the directory exists before the store opens)", async () => {
    const store = join(tempDir(), "cli", "store");
    await cliAccount(store, "alice");
    expect(mode(store)).toBe("700");
    expect(mode(join(store, "..", ".."))).toBe("700"); // tempDir itself (mkdtemp)
    expect(mode(join(store, ".."))).toBe("700");
    expect(mode(join(store, "platform.sqlite"))).toBe("600");
  });

  it("writeFileDurably writes 0600 and creates its directory 0700", () => {
    const file = join(tempDir(), "sub", "cp.json");
    writeFileDurably(file, "{}\n");
    expect(mode(file)).toBe(STORE_FILE_MODE.toString(8));
    expect(mode(join(file, ".."))).toBe(STORE_DIR_MODE.toString(8));
  });

  it("opening a store others can read warns on stderr naming the chmod, and opens it", async () => {
    const dir = await exposedStore(join(tempDir(), "old"));
    const lines = captureStderr();
    const p = await Platform.open({ dir });
    await p.close();
    const text = lines.join("");
    expect(text).toContain(`warning: ${dir} is readable by other users (mode 755)`);
    expect(text).toContain(`run chmod 700 ${dir}\n`);
    expect(text).toContain(`run chmod 600 ${join(dir, "platform.sqlite")}*\n`);
    // a private store opens silently
    const quiet = join(tempDir(), "quiet");
    lines.length = 0;
    await (await Platform.open({ dir: quiet })).close();
    expect(lines.join("")).toBe("");
    expect(warnIfExposed([quiet, join(quiet, "platform.sqlite"), join(quiet, "missing")])).toEqual([]);
    writeFileSync(join(quiet, "x"), "");
    chmodSync(join(quiet, "x"), 0o640);
    expect(warnIfExposed([join(quiet, "x")])).toEqual([join(quiet, "x")]);
  });

  it("the chmod it names works when pasted, for a path with a space, a quote or a $ (probeD3 F13)", async () => {
    const dir = await exposedStore(join(tempDir(), "my store'x $HOME"));
    const lines = captureStderr();
    await (await Platform.open({ dir })).close();
    vi.restoreAllMocks();
    const commands = [...lines.join("").matchAll(/: run (chmod .*)$/gm)].map((m) => m[1]!);
    expect(commands).toHaveLength(2);
    for (const c of commands) execFileSync("sh", ["-c", c]);
    expect(mode(dir)).toBe("700");
    expect(mode(join(dir, "platform.sqlite"))).toBe("600");
  });
});
