import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Platform, type PlatformOptions } from "../src/platform.js";
import type { DatasetInput } from "../src/dataset.js";

/** A manual clock (unix ms) for tests. */
export function manualClock(startMs = Date.UTC(2026, 0, 1)): {
  now: () => number;
  advance: (ms: number) => void;
  set: (ms: number) => void;
} {
  let t = startMs;
  return { now: () => t, advance: (ms) => void (t += ms), set: (ms) => void (t = ms) };
}

const dirs: string[] = [];

/** A fresh temporary store directory (removed by {@link cleanup}). */
export function tempDir(prefix = "bb-platform-"): string {
  const d = mkdtempSync(join(tmpdir(), prefix));
  dirs.push(d);
  return d;
}

/** Opens a platform on a fresh store. */
export function openTemp(opts: Partial<PlatformOptions> = {}): Platform {
  return Platform.open({ dir: tempDir(), ...opts });
}

export function cleanup(): void {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
}

/** A small labelled dataset: `n` cities with a capital label. */
export function cities(n = 10, name = "cities"): DatasetInput {
  return {
    name,
    rows: Array.from({ length: n }, (_, i) => ({
      decision_ts: `2026-01-${String((i % 28) + 1).padStart(2, "0")}T00:00:00Z`,
      payload: { city: `City${i}`, index: i },
      label: `answer-${i}`,
    })),
  };
}

/** A deterministic in-process agent: answers `answer-<index>` read from the prompt, wrong on every third. */
export function promptAgent(prompt: string): string {
  const m = /#(\d+)/.exec(prompt);
  const i = Number(m?.[1] ?? -1);
  return i % 3 === 0 ? "wrong" : `answer-${i}`;
}
