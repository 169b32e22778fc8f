/**
 * The `bench-bounty` program: the platform commands, `serve` and the verifier commands on one
 * commander program. The bin (`index.ts`) parses `process.argv` with it; the crash tests' entry
 * (`packages/server/test/fixtures/fault-serve.mjs`) builds it with fault hooks.
 */
import type { EventEmitter } from "node:events";
import { readFileSync } from "node:fs";
import { Command } from "commander";
import { environNotUtf8, type FaultHooks } from "@bench-bounty/platform";
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
  const program = new Command("bench-bounty")
    .description("on-chain USDC prizes for AI-agent benchmarks: publish, run, award, and verify")
    .version(cliVersion(), "--version", "print the bench-bounty version");
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

/** This package's version (its `package.json`, one directory above `dist/` and `src/`). */
function cliVersion(): string {
  const pkg = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as {
    version: string;
  };
  return pkg.version;
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
  for (let i = 0; i < mine.length; i++) {
    if (isUtf8(mine[i]!)) continue;
    const prev = i > 0 ? args[i - 1] : undefined;
    const what =
      prev !== undefined && prev.startsWith("-") && !prev.includes("=")
        ? `the value of ${prev}`
        : `argument ${i + 1}${(args[i] ?? "").startsWith("--") ? ` (${(args[i] ?? "").split("=")[0]})` : ""}`;
    return notUtf8Message(what);
  }
  return null;
}

/**
 * Makes every option's environment form (`.env(NAME)`) refused, when its value is used, if the variable's
 * raw bytes are not UTF-8: Node decodes the environment lossily too, so `BENCH_BOUNTY_STORE=$'st\xff'`
 * created the store at `st` + U+FFFD, a path nobody gave (probe32 B-F4), where `--store $'st\xff'` was
 * refused ({@link argvEncodingProblem}). The variable is checked only where commander would read it (the
 * option not given on the command line), before the option's own parser, and the refusal is the
 * command's usage error (`error: the value of NAME (the environment form of --flag) is not UTF-8: ...`;
 * exit 1, the verifier's commands 2).
 * @param program the whole program, its commands registered
 * @param environ the process's raw environment, `NAME=value` entries NUL-separated (as `/proc/self/environ`)
 * @returns `program`
 */
export function refuseEnvironmentNotUtf8(program: Command, environ: Uint8Array): Command {
  const bad = environNotUtf8(environ); // the platform's one rule (`run --agent-env` uses it too)
  if (bad.size === 0) return program;
  const equip = (cmd: Command): void => {
    for (const option of cmd.options)
      if (option.envVar !== undefined && bad.has(option.envVar)) {
        const what = `the value of ${option.envVar} (the environment form of ${option.long ?? option.flags})`;
        // emitted only when the variable's value is taken; ahead of the listener that parses the value
        // (commander's Command is an EventEmitter; its types declare only `on`)
        (cmd as unknown as EventEmitter).prependListener(`optionEnv:${option.name()}`, () =>
          cmd.error(`error: ${notUtf8Message(what)}`),
        );
      }
    for (const sub of cmd.commands) equip(sub);
  };
  equip(program);
  return program;
}

/** Whether `bytes` decode as UTF-8 without a replacement character (the rule of both checks above). */
function isUtf8(bytes: Uint8Array): boolean {
  try {
    new TextDecoder("utf-8", { fatal: true }).decode(bytes);
    return true;
  } catch {
    return false;
  }
}

/** The refusal of a value that is not UTF-8, `what` naming it (an option, an argument, a variable). */
function notUtf8Message(what: string): string {
  return `${what} is not UTF-8: pass text encoded as UTF-8 (its bytes would be stored as U+FFFD)`;
}
