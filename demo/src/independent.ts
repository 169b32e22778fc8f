/** The independent Python check of a pack (`demo/independent/check_pack.py`, written from the SPEC alone). */
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";

/** Outcome of `demo/independent/check_pack.py`. */
export interface IndependentCheck {
  /** False when python3 is not installed (the check is optional: the setup needs only Node and npm). */
  ran: boolean;
  passed: boolean;
  /** Its output (one line per check), or why it did not run. */
  output: string;
}

/** Path of the independent Python check. */
export const INDEPENDENT_CHECK = fileURLToPath(new URL("../independent/check_pack.py", import.meta.url));

/** Runs the independent Python check of a pack file against the chain. */
export function runIndependentCheck(packFile: string, rpcUrl: string): IndependentCheck {
  const probe = spawnSync("python3", ["--version"], { encoding: "utf8" });
  if (probe.error || probe.status !== 0) return { ran: false, passed: false, output: "python3 not found" };
  const r = spawnSync("python3", [INDEPENDENT_CHECK, packFile, "--rpc", rpcUrl], {
    encoding: "utf8",
    timeout: 300_000,
  });
  const output = `${r.stdout ?? ""}${r.stderr ?? ""}`.trim();
  return { ran: true, passed: r.status === 0, output: output || String(r.error ?? `exit ${r.status}`) };
}
