/**
 * The `bench-bounty` program: the platform commands, `serve` and the verifier commands on one
 * commander program. The bin (`index.ts`) parses `process.argv` with it; the crash tests' entry
 * (`packages/server/test/fixtures/fault-serve.mjs`) builds it with fault hooks.
 */
import { Command } from "commander";
import type { FaultHooks } from "@bench-bounty/platform";
import { registerPlatformCommands } from "@bench-bounty/platform/cli";
import { refuseRepeatedOptions, registerVerifierCommands } from "@bench-bounty/verifier/cli";
import { HttpAccountKeys, HttpRunBackend } from "./remote.js";
import { registerServeCommand } from "./serve.js";

/** Options of {@link buildProgram}. */
export interface ProgramOptions {
  /**
   * Test only: fault-injection hooks handed to the platform `serve` opens (crash tests make the
   * process kill itself at a named step). The `bench-bounty` bin never sets them; a hook can only
   * stop the process, never change what an award pays or to whom.
   */
  faults?: FaultHooks;
}

/**
 * The whole `bench-bounty` command line. A single-valued option given twice, in any command, is
 * refused naming it and both values (`refuseRepeatedOptions`).
 */
export function buildProgram(opts: ProgramOptions = {}): Command {
  const program = new Command("bench-bounty").description(
    "on-chain USDC prizes for AI-agent benchmarks: publish, run, award, and verify",
  );
  registerPlatformCommands(program, {
    remoteBackend: (server, apiKey, checkpointDir, privatePaths) =>
      new HttpRunBackend(server, apiKey, checkpointDir, privatePaths),
    remoteAccountKeys: (server, apiKey) => new HttpAccountKeys(server, apiKey),
  });
  registerServeCommand(program, opts.faults ? { faults: opts.faults } : {});
  registerVerifierCommands(program);
  // every command, `serve` included: a single-valued option given twice is refused (probe29 B-F2)
  return refuseRepeatedOptions(program);
}

/**
 * The first command-line argument whose bytes are not UTF-8, named with the option it follows
 * (`--title`), or null. Node decodes argv lossily, so a byte that is not UTF-8 reached stored text as
 * U+FFFD without a word (probe26 B-F6); the raw bytes (Linux: `/proc/self/cmdline`, NUL-separated)
 * show it. The user's arguments are the last `args.length` entries of `cmdline` (Node's own options
 * come before them).
 * @param cmdline the process's raw command line, NUL-separated (as `/proc/self/cmdline`)
 * @param args `process.argv.slice(2)`
 * @returns `<what> is not UTF-8 (byte 0x.. at offset n): pass text encoded as UTF-8`, or null
 */
export function argvEncodingProblem(cmdline: Uint8Array, args: readonly string[]): string | null {
  const raw: Uint8Array[] = [];
  let start = 0;
  for (let i = 0; i < cmdline.length; i++)
    if (cmdline[i] === 0) {
      raw.push(cmdline.subarray(start, i));
      start = i + 1;
    }
  if (start < cmdline.length) raw.push(cmdline.subarray(start));
  if (raw.length < args.length) return null;
  const mine = raw.slice(raw.length - args.length);
  const strict = new TextDecoder("utf-8", { fatal: true });
  for (let i = 0; i < mine.length; i++) {
    try {
      strict.decode(mine[i]);
    } catch {
      const prev = i > 0 ? args[i - 1] : undefined;
      const what =
        prev !== undefined && prev.startsWith("-") && !prev.includes("=")
          ? `the value of ${prev}`
          : `argument ${i + 1}${(args[i] ?? "").startsWith("--") ? ` (${(args[i] ?? "").split("=")[0]})` : ""}`;
      return `${what} is not UTF-8: pass text encoded as UTF-8 (its bytes would be stored as U+FFFD)`;
    }
  }
  return null;
}
