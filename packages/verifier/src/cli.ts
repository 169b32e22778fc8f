/**
 * The verifier's commands for the `bench-bounty` CLI (and the standalone
 * `bench-bounty-verify` bin): `verify` and `verify-receipt`.
 *
 * Exit codes (documented in the README; {@link EXIT_CODES}):
 * `0` the policy is met (verify-receipt: the receipt verifies), `1` not met,
 * `2` bad input (the message names the JSON path or the option), `3` a file,
 * URL, RPC or indexer could not be read, `4` an internal error (a bug; set
 * `BENCH_BOUNTY_DEBUG=1` for the stack).
 *
 * @packageDocumentation
 */
import { fstat, type Stats } from "node:fs";
import { lstat, realpath, rename, stat, unlink, writeFile } from "node:fs/promises";
import { dirname, resolve } from "node:path";
import { fileKind } from "@bench-bounty/evidence";
import { SingleBar } from "cli-progress";
import { Command, Option, type CommanderError } from "commander";
import { verifyComputeReceipt, type ComputeReceiptReport } from "./compute-receipt/index.js";
import {
  EXIT_CODES,
  VerifierInputError,
  VerifierNetworkError,
  describeError,
  isVerifierInputError,
  isVerifierNetworkError,
} from "./errors.js";
import { DEFAULT_DEADLINE_MS, isVerificationDeadlineError } from "./deadline.js";
import { FACT_DESCRIPTIONS, OPTIONAL_FACT_DESCRIPTIONS, type PolicyName } from "./facts.js";
import { formatReportTable } from "./format.js";
import type { ProgressCallback } from "./progress.js";
import { POLICY_DESCRIPTIONS, POLICY_NAMES } from "./policy.js";
import { isHttpUrl } from "./source.js";
import { oneLine, printable, terminalJson } from "./text.js";
import { optionSourceName, refuseRepeatedOptions, repeatableOption } from "./cli-options.js";
import { verifyPack } from "./verify.js";

export {
  optionSourceName,
  refuseRepeatedOptions,
  repeatableOption,
  repeatedOptionMessage,
} from "./cli-options.js";

/** Exit code for an internal error (a bug in the verifier, not in the input). */
export const EXIT_INTERNAL = 4;

/** Where the commands write (tests and the composed CLI can redirect). */
export interface CliIo {
  stdout: NodeJS.WritableStream & { isTTY?: boolean };
  stderr: NodeJS.WritableStream & { isTTY?: boolean };
  /** Set the process exit code (default: `process.exitCode = code`). */
  setExitCode(code: number): void;
}

const defaultIo = (): CliIo => ({
  stdout: process.stdout,
  stderr: process.stderr,
  setExitCode: (code) => {
    process.exitCode = code;
  },
});

/** Options of {@link registerVerifierCommands}. */
export interface RegisterOptions {
  /** Make `verify` the default command (the standalone bin: `bench-bounty-verify pack.json`). */
  verifyIsDefault?: boolean;
  io?: CliIo;
}

/**
 * Print an error without a stack and return its exit code. The message is written as one line
 * without control characters ({@link oneLine}): it may quote a server's, an RPC's or the pack's text.
 */
export function reportError(e: unknown, io: Pick<CliIo, "stderr">, command: string): number {
  const say = (line: string): void => {
    io.stderr.write(`${oneLine(line)}\n`);
  };
  if (isVerificationDeadlineError(e)) {
    say(`${command}: ${e.message}`);
    return EXIT_CODES.networkOrIo;
  }
  if (isVerifierInputError(e)) {
    say(`${command}: bad input: ${e.message}`);
    return EXIT_CODES.badInput;
  }
  if (isVerifierNetworkError(e)) {
    const action = (e as { action?: unknown }).action === "write" ? "write" : "read";
    say(`${command}: cannot ${action} ${e.message}`);
    return EXIT_CODES.networkOrIo;
  }
  say(`${command}: internal error: ${describeError(e)}`);
  if (process.env.BENCH_BOUNTY_DEBUG === "1" && e instanceof Error && e.stack)
    io.stderr.write(`${e.stack}\n`);
  return EXIT_INTERNAL;
}

/**
 * Write the `--out` report atomically (temporary file next to `target` + rename): never a partial report.
 * `target` is what {@link outTarget} resolved (`out` itself, or the regular file a symbolic link names).
 * @throws VerifierNetworkError with `action: "write"` naming `--out <out>` (exit code 3)
 */
async function writeAtomic(out: string, target: string, text: string): Promise<void> {
  const tmp = `${target}.${process.pid}.tmp`;
  try {
    await writeFile(tmp, text);
    await rename(tmp, target);
  } catch (e) {
    await unlink(tmp).catch(() => undefined); // best-effort clean-up: the write's own error is thrown below
    throw new VerifierNetworkError(`--out ${out}`, await writeFailure(e, target), {
      cause: e,
      action: "write",
    });
  }
}

/**
 * Write the command's output to standard output and wait until it is written. A write that fails
 * (`> /dev/full`: ENOSPC) is a {@link VerifierNetworkError} with `action: "write"` naming standard
 * output (exit 3), not an uncaught stream error (exit 1, the code of "policy not met", with a stack).
 * A closed pipe (EPIPE: the reader, `head`, has what it wants) ends the output quietly.
 * @throws VerifierNetworkError naming `standard output`
 */
async function writeOutput(io: CliIo, text: string): Promise<void> {
  const stream = io.stdout;
  // the stream also emits the error as an event: without a listener it would be thrown uncaught
  const swallow = (): void => undefined;
  stream.on("error", swallow);
  try {
    await new Promise<void>((resolve, reject) => {
      stream.write(text, (e?: Error | null) => (e ? reject(e) : resolve()));
    });
  } catch (e) {
    // the reader closed the pipe (`verify ... | head`): it wants no more, as SIGPIPE would end a C tool
    // quietly; the command keeps its own exit code
    if ((e as NodeJS.ErrnoException).code === "EPIPE") return;
    throw new VerifierNetworkError("standard output", await writeFailure(e, "."), {
      cause: e,
      action: "write",
    });
  } finally {
    setImmediate(() => stream.removeListener("error", swallow));
  }
}

/**
 * A reader that closes `stream` early (`bench-bounty leaderboard ... | head -1`: EPIPE) ends the command's
 * output quietly, as SIGPIPE ends a C tool: later writes are dropped and the command finishes with its own
 * exit code (probe26 B-F4: a write after an await ended in an unhandled 'error' event with a stack). Any
 * other output error is thrown as before. For a program's entry point (`bench-bounty`).
 */
export function endOutputQuietlyOnClosedPipe(stream: NodeJS.WriteStream = process.stdout): void {
  stream.on("error", (e: NodeJS.ErrnoException) => {
    if (e.code !== "EPIPE") throw e;
    // dropped, each write's callback still called (a writer awaiting it goes on)
    stream.write = ((_chunk: unknown, encOrDone?: unknown, done?: unknown) => {
      const callback = typeof encOrDone === "function" ? encOrDone : done;
      if (typeof callback === "function") process.nextTick(callback as () => void);
      return true;
    }) as typeof stream.write;
  });
}

/**
 * Where the `--out` report goes, checked before the pack is read (probe D2-F10: the report was renamed over
 * whatever was at the path, so a symbolic link, a FIFO or a device node, `/dev/full` as root, became a JSON
 * file). Nothing there, or a regular file: `out` itself (replaced atomically). A symbolic link to a regular
 * file: that file (written through, the link kept). Anything else is refused, untouched.
 * A path that cannot be examined (a parent not searchable) is returned as is: writing it reports why.
 * @throws VerifierInputError `bad_option` naming `--out` for an empty path, a directory, FIFO, device or
 *   socket, a symbolic link to one of those, a symbolic link to nothing, or a loop of links
 */
export async function outTarget(out: string): Promise<string> {
  const refuse = (what: string): never => {
    throw new VerifierInputError(
      "bad_option",
      "--out",
      `${JSON.stringify(out)} is ${what}: the report is written only to a regular file (or through a symbolic link to one)`,
    );
  };
  // an empty path names no file: a bad option, refused before the pack is read like any other (probe30
  // B-F7: `--out ''` ran the whole verification, then failed to write with exit 3)
  if (out === "") return refuse("an empty path");
  const code = (e: unknown): string | undefined => {
    const c = (e as { code?: unknown }).code;
    if (typeof c !== "string") throw e; // not a file system error: a bug
    return c;
  };
  let link: Stats;
  try {
    link = await lstat(out);
  } catch (e) {
    code(e);
    return out; // nothing there (or not examinable): the write creates it or says why
  }
  if (link.isFile()) return out;
  if (!link.isSymbolicLink()) return refuse(`${fileKind(link)}, not a regular file`);
  let target: Stats;
  try {
    target = await stat(out); // follows the link, /proc/self/fd/N to a pipe included
  } catch (e) {
    const c = code(e);
    if (c === "ENOENT" || c === "ENOTDIR")
      return refuse("a symbolic link to nothing (its target does not exist)");
    if (c === "ELOOP") return refuse("a loop of symbolic links");
    return out;
  }
  if (!target.isFile()) return refuse(`a symbolic link to ${fileKind(target)}, not a regular file`);
  try {
    return await realpath(out);
  } catch (e) {
    code(e);
    // a regular file that has no path (/proc/self/fd/N of a deleted file): nowhere to write it through
    return refuse("a symbolic link to a regular file without a path");
  }
}

/**
 * Refuse an `--out` report that would overwrite an input of `verify`: the pack being verified or any
 * `--receipt` file (probe35 B-F2: a competitor's own receipt, which may not be fetchable again once the
 * service is gone, was replaced by the report). One rule for every input: the same path once resolved,
 * or (when both exist) the same file (device and inode, so a hard link or a symbolic link is caught
 * too); an input read from standard input (`-`) is the file stdin is redirected from. A URL is never
 * the `--out` file.
 * @param pack the `<pack>` argument (a path, `-` or an http(s) URL)
 * @param receipts the `--receipt` values, in order (each a path, `-` or an http(s) URL)
 * @param out the `--out` path, if given
 * @throws VerifierInputError `bad_option` naming `--out` and the input it would overwrite
 */
export async function refuseOutOverInputs(
  pack: string,
  receipts: readonly string[],
  out: string | undefined,
): Promise<void> {
  if (out === undefined) return;
  const inputs = [
    { value: pack, what: "the pack being verified", overwritten: "the pack" },
    ...receipts.map((value) => ({ value, what: "a --receipt being read", overwritten: "that receipt" })),
  ].filter((i) => !isHttpUrl(i.value));
  if (inputs.length === 0) return;
  const refuse = (input: (typeof inputs)[number]): never => {
    throw new VerifierInputError(
      "bad_option",
      "--out",
      `${JSON.stringify(out)} is ${input.what} (${JSON.stringify(input.value)}); writing the report there would overwrite ${input.overwritten}`,
    );
  };
  for (const input of inputs) if (input.value !== "-" && resolve(input.value) === resolve(out)) refuse(input);
  // a path that cannot be stat'ed (absent, unreadable) is not the same file as the other: reading or writing it reports why
  const statOrNull = (path: string) =>
    stat(path).catch((e: unknown) => {
      if (typeof (e as { code?: unknown }).code === "string") return null;
      throw e;
    });
  // standard input redirected from an input file (`verify - --out pack.json < pack.json`, probe14 D2-F21)
  // is that file: its descriptor's device and inode
  const stdinStat = () =>
    new Promise<Stats | null>((res) => fstat(0, (e, st) => res(e ? null : st.isFile() ? st : null)));
  const o = await statOrNull(out);
  if (o === null) return;
  const stats = await Promise.all(inputs.map((i) => (i.value === "-" ? stdinStat() : statOrNull(i.value))));
  stats.forEach((p, n) => {
    if (p !== null && p.dev === o.dev && p.ino === o.ino) refuse(inputs[n]!);
  });
}

/** Why a write failed, in words, without the temporary file's name. */
async function writeFailure(e: unknown, target: string): Promise<string> {
  const code = (e as { code?: unknown }).code;
  if (code === "ENOENT") {
    // /proc/self/x: the directory exists, no file can be made there (probe D2-F10: "does not exist" was false)
    const dir = await stat(dirname(target)).catch(() => null);
    return dir?.isDirectory() === true
      ? "no file can be created in its directory (ENOENT)"
      : "its directory does not exist (ENOENT)";
  }
  if (code === "ENOTDIR") return "a parent of it is not a directory (ENOTDIR)";
  if (code === "EISDIR") return "it is a directory (EISDIR)";
  if (code === "EACCES" || code === "EPERM") return `permission denied (${code})`;
  if (code === "ENOSPC") return "no space left on the device (ENOSPC)";
  if (code === "EROFS") return "the file system is read-only (EROFS)";
  return describeError(e);
}

/**
 * An option that must be an http(s) URL (`--rpc`, `--indexer`), checked before
 * anything is read, so a typo is a bad option (exit 2), not a network failure (exit 3).
 * The value is never echoed (a provider's key may be in its userinfo, path or query, whatever its
 * scheme): the message names the option and, at most, the scheme it was given (probe10 R2).
 * @throws VerifierInputError `bad_option` naming the option
 */
export function parseHttpUrlOption(v: unknown, flag: string): string | undefined {
  if (v === undefined) return undefined;
  const s = String(v);
  const unshown = "the value is not printed: it may carry a key";
  let url: URL;
  try {
    url = new URL(s);
  } catch (e) {
    if (!(e instanceof TypeError)) throw e; // URL throws a TypeError for what is not a URL
    throw new VerifierInputError("bad_option", flag, `expected an http(s) URL (${unshown})`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    const scheme = url.protocol.replace(/:$/, "");
    // a scheme is letters, digits, + . - (URL lowercases it); anything else is not printed either
    const shownScheme = /^[a-z][a-z0-9+.-]{0,31}$/.test(scheme) ? `scheme ${scheme}; ` : "";
    throw new VerifierInputError("bad_option", flag, `expected an http(s) URL (${shownScheme}${unshown})`);
  }
  if (url.hostname === "")
    throw new VerifierInputError("bad_option", flag, `expected an http(s) URL with a host (${unshown})`);
  return s;
}

/**
 * A URL option that has an environment form (`--rpc` / `BENCH_BOUNTY_VERIFY_RPC_URL`): an empty variable
 * counts as unset (a CI template's `export VAR=` must not block the offline check), and a refusal names
 * where the value came from, the variable or the flag (probe14 D2-F22: a bad variable was reported as
 * `--rpc`, an option nobody gave).
 * @throws VerifierInputError `bad_option` naming the flag or the variable
 */
function urlOptionOf(cmd: Command, name: string, flag: string): string | undefined {
  const v = cmd.getOptionValue(name) as string | undefined;
  if (cmd.getOptionValueSource(name) === "env" && (v === undefined || v === "")) return undefined;
  return parseHttpUrlOption(v, optionSourceName(cmd, flag));
}

/**
 * A document argument (`<pack>`, `<execute>`, `--jwks`: a file path, `-` or an http(s) URL): a value
 * written like a URL (`scheme://...`) must be a well-formed http(s) URL, so
 * `ftp://x/jwks.json` or `https://` is a bad option (exit 2), not a file or URL that cannot be read (exit 3).
 * @throws VerifierInputError `bad_option` naming `flag`
 */
export function parseDocumentArgument(v: string, flag: string): string {
  return /^[A-Za-z][A-Za-z0-9+.-]*:\/\//.test(v) ? (parseHttpUrlOption(v, flag) as string) : v;
}

/** A cli-progress bar on stderr, fed by the verifier's progress callback; shown for phases of at least `minTotal` items. */
function progressBar(
  io: CliIo,
  force: boolean | undefined,
  minTotal = 5000,
): { onProgress?: ProgressCallback; stop(): void } {
  const show = force === true || (force !== false && io.stderr.isTTY === true);
  if (!show) return { stop: () => undefined };
  let bar: SingleBar | null = null;
  let phase = "";
  const onProgress: ProgressCallback = (p) => {
    if (p.total < minTotal && force !== true) return;
    if (p.phase !== phase) {
      bar?.stop();
      phase = p.phase;
      bar = new SingleBar({
        stream: io.stderr,
        format: `${p.phase.padEnd(10)} [{bar}] {percentage}% {value}/{total}`,
        noTTYOutput: force === true,
        notTTYSchedule: 500,
        hideCursor: false,
        clearOnComplete: false,
        synchronousUpdate: true,
        fps: 10,
      });
      bar.start(p.total, p.done);
    } else bar?.update(p.done);
    if (p.done >= p.total) {
      bar?.stop();
      bar = null;
    }
  };
  return {
    onProgress,
    stop: () => {
      (bar as SingleBar | null)?.stop();
    },
  };
}

function exitOverride(cmd: Command): Command {
  return cmd.exitOverride((err: CommanderError) => {
    // usage mistakes (unknown option, missing argument, bad --policy) are bad input: exit 2
    process.exit(err.exitCode === 0 ? 0 : EXIT_CODES.badInput);
  });
}

/**
 * Help of `--timeout`: it bounds one request, and a JSON-RPC request that
 * times out is retried once (viem, `retryCount: 1`), so an RPC that accepts
 * and never answers is given up after about twice the timeout.
 */
const TIMEOUT_HELP = (defaults: string): string =>
  `network timeout of one request, headers and body together, milliseconds (default ${defaults}); a JSON-RPC request that times out is retried once, so an RPC that never answers fails after about twice this`;

/** Help of `--deadline`: the total bound of a verification, every request included. */
const DEADLINE_HELP = `total time of the whole verification, every read of the pack, JWKS, RPC and indexer included, milliseconds (default ${DEFAULT_DEADLINE_MS}, 30 minutes); at the deadline every request is aborted and the command exits with 3`;

const EXIT_HELP = `
Exit codes:
  0  the policy is met
  1  the policy is not met (some required fact is not in an accepted state)
  2  bad input: not JSON, truncated, a missing key, a wrong type, a value beyond the limits, a bad option
  3  a file, URL, RPC endpoint or indexer could not be read, or not within --deadline
  4  internal error (a bug; BENCH_BOUNTY_DEBUG=1 prints the stack)

Policies:
${POLICY_NAMES.map((p) => `  ${p.padEnd(8)} ${POLICY_DESCRIPTIONS[p]}`).join("\n")}

Facts:
${Object.entries({ ...FACT_DESCRIPTIONS, ...OPTIONAL_FACT_DESCRIPTIONS })
  .map(([n, d]) => `  ${n.padEnd(19)} ${d}`)
  .join("\n")}

The row set of rank_derivation.rows is the awarder's word: receipts are anchored by digest alone, so no
fact above can find a finalized run the award left out. A competitor can: --receipt with its own receipt.
`;

/**
 * Register `verify` and `verify-receipt` on a commander program. A single-valued option given twice
 * (`--policy full --policy offline`) is refused, exit 2, naming it and both values
 * ({@link refuseRepeatedOptions}, applied to `program` and every command under it).
 *
 * @example
 * const program = new Command("bench-bounty");
 * registerVerifierCommands(program);
 * await program.parseAsync();
 */
export function registerVerifierCommands(program: Command, options: RegisterOptions = {}): Command {
  const io = options.io ?? defaultIo();

  const verify = program
    .command("verify", { isDefault: options.verifyIsDefault === true })
    .description(
      "verify an award evidence pack: recompute the award from the pack, the chain (--rpc) and the indexer (--indexer)",
    )
    .argument("<pack>", "the pack: a file path, - for standard input, or an http(s) URL (the evidence door)")
    // env forms: a provider's key in the URL stays out of argv (`ps`) and shell history (probe10 R2);
    // only a URL's origin is ever printed
    .addOption(
      new Option(
        "--rpc <url>",
        "JSON-RPC URL of the chain the pack names (enables the on-chain facts; only its origin is printed)",
      ).env("BENCH_BOUNTY_VERIFY_RPC_URL"),
    )
    .addOption(
      new Option(
        "--indexer <url>",
        "base URL of the bench-bounty indexer (enables indexer_agreement; its query is kept, userinfo sent as Basic auth; only its origin is printed)",
      ).env("BENCH_BOUNTY_VERIFY_INDEXER_URL"),
    )
    .addOption(
      new Option("--policy <name>", "policy deciding the exit code")
        .choices([...POLICY_NAMES])
        .default("offline"),
    )
    .option("--json", "print the report as JSON (bench-bounty.verification.v1) instead of the table")
    .option(
      "--out <file>",
      "also write the JSON report to this file (atomically; through a symbolic link to a regular file; anything else that is not a regular file is refused)",
    )
    .addOption(
      repeatableOption(
        "--receipt <file|url>",
        "your own run receipt (the payload, or {receipt, receipt_hash} as its receipt_url serves it; a file, - or an http(s) URL; repeatable): adds the fact receipt_inclusion, each receipt a row of the pack (or a worse run of an agent whose row ranks before it), which every policy requires",
      ),
    )
    .option("--verbose", "table: print every reason of every fact")
    .option("--progress", "show a progress bar on stderr even when it is not a terminal")
    .option("--no-progress", "never show a progress bar")
    .option(
      "--max-string <n>",
      "longest string value or key accepted in the pack, in UTF-16 code units (an emoji outside the BMP is 2; default 4194304)",
    )
    .option("--timeout <ms>", TIMEOUT_HELP("20000; 30000 for a pack URL"))
    .option("--deadline <ms>", DEADLINE_HELP)
    .addHelpText("after", EXIT_HELP)
    .action(async (pack: string, opts: Record<string, unknown>, cmd: Command) => {
      const bar = progressBar(io, opts.progress as boolean | undefined);
      try {
        const maxString = parsePositiveInt(opts.maxString, "--max-string");
        const timeout = parsePositiveInt(opts.timeout, "--timeout", MAX_TIMER);
        const deadline = parsePositiveInt(opts.deadline, "--deadline", MAX_TIMER);
        const rpcUrl = urlOptionOf(cmd, "rpc", "--rpc");
        const indexerUrl = urlOptionOf(cmd, "indexer", "--indexer");
        const out = opts.out as string | undefined;
        await refuseOutOverInputs(pack, (opts.receipt as string[] | undefined) ?? [], out);
        const outPath = out === undefined ? undefined : await outTarget(out);
        const source = parseDocumentArgument(pack, "<pack>");
        const receipts = ((opts.receipt as string[] | undefined) ?? []).map((r) =>
          parseDocumentArgument(r, "--receipt"),
        );
        const report = await verifyPack({
          source,
          receipts,
          rpcUrl,
          indexerUrl,
          policy: opts.policy as PolicyName,
          onProgress: bar.onProgress,
          limits: { maxStringLength: maxString },
          timeoutMs: timeout,
          deadlineMs: deadline,
        });
        bar.stop();
        // JSON escapes C0 controls only: DEL, C1 and bidi controls of the pack's strings are escaped too
        const json = terminalJson(JSON.stringify(report, null, 2)) + "\n";
        if (out !== undefined && outPath !== undefined) await writeAtomic(out, outPath, json);
        await writeOutput(
          io,
          opts.json ? json : formatReportTable(report, { verbose: opts.verbose === true }),
        );
        io.setExitCode(report.policy_met ? EXIT_CODES.policyMet : EXIT_CODES.policyNotMet);
      } catch (e) {
        bar.stop();
        io.setExitCode(reportError(e, io, "verify"));
      }
    });
  exitOverride(verify);

  const receipt = program
    .command("verify-receipt")
    .description(
      "verify a hosted compute receipt: ES256 signature (JWKS by kid), sha256 bindings, cost and token sums, receipt_hash, anchor",
    )
    .argument(
      "<execute>",
      "the saved execute response (JSON with receipt_jws): a file path, - or an http(s) URL",
    )
    .requiredOption("--jwks <file|url>", "the platform's JWKS (a file or an http(s) URL)")
    .option("--input <file>", "the task input you sent (hashed as bytes)")
    .option("--output <file>", "the output you received (default: the response's output field)")
    .addOption(
      new Option(
        "--rpc <url>",
        "JSON-RPC URL: check the receipt_hash anchor (kind compute-receipt; only its origin is printed)",
      ).env("BENCH_BOUNTY_VERIFY_RPC_URL"),
    )
    .option(
      "--registry <address>",
      "AnchorRegistry address (default: the address book entry of the RPC's chain)",
    )
    .option("--json", "print the report as JSON")
    .option("--timeout <ms>", TIMEOUT_HELP("20000 for the RPC; 30000 for a URL"))
    .option("--deadline <ms>", DEADLINE_HELP)
    .addHelpText(
      "after",
      `
Exit codes:
  0  the receipt verifies (signature, sums and hash; no fact failed)
  1  it does not
  2  bad input (not JSON, no receipt_jws, a malformed JWS or JWKS, a bad option)
  3  a file, URL or RPC endpoint could not be read, or not within --deadline
  4  internal error (a bug)
`,
    )
    .action(async (execute: string, opts: Record<string, unknown>, cmd: Command) => {
      try {
        const report = await verifyComputeReceipt({
          execute: parseDocumentArgument(execute, "<execute>"),
          jwks: parseDocumentArgument(opts.jwks as string, "--jwks"),
          input: opts.input as string | undefined,
          output: opts.output as string | undefined,
          rpcUrl: urlOptionOf(cmd, "rpc", "--rpc"),
          registry: opts.registry as string | undefined,
          timeoutMs: parsePositiveInt(opts.timeout, "--timeout", MAX_TIMER),
          deadlineMs: parsePositiveInt(opts.deadline, "--deadline", MAX_TIMER),
        });
        await writeOutput(
          io,
          opts.json
            ? terminalJson(JSON.stringify(report, jsonBigints, 2)) + "\n"
            : formatReceiptTable(report),
        );
        io.setExitCode(report.ok ? EXIT_CODES.policyMet : EXIT_CODES.policyNotMet);
      } catch (e) {
        io.setExitCode(reportError(e, io, "verify-receipt"));
      }
    });
  exitOverride(receipt);
  return refuseRepeatedOptions(program);
}

function jsonBigints(_k: string, v: unknown): unknown {
  if (typeof v === "bigint") return v.toString();
  if (typeof v === "object" && v !== null && "lexeme" in v && "value" in v)
    return Number((v as { lexeme: string }).lexeme);
  return v;
}

/**
 * The longest delay a Node timer takes, in ms (2^31-1, about 24.8 days): a longer one fires after 1 ms,
 * so `--timeout` and `--deadline` are bounded by it (probe16 B-F13).
 */
const MAX_TIMER_MS = 2 ** 31 - 1;

/** `--max-string`'s bound: the largest integer a JS number holds exactly. */
const MAX_PLAIN_INT = { max: Number.MAX_SAFE_INTEGER, unit: "" } as const;
/** `--timeout` / `--deadline`'s bound: {@link MAX_TIMER_MS} milliseconds. */
const MAX_TIMER = { max: MAX_TIMER_MS, unit: " ms (a timer's maximum)" } as const;

/**
 * A positive integer option (`--max-string`; with {@link MAX_TIMER}, the milliseconds of `--timeout` /
 * `--deadline`). Anything but decimal digits without a leading zero is "expected a positive integer"; a
 * positive integer past `bound.max`, whatever its digit count, is "expected at most <max>" (probe39 B-N1).
 * @throws VerifierInputError `bad_option` naming `flag` (exit 2)
 */
function parsePositiveInt(
  v: unknown,
  flag: string,
  bound: { max: number; unit: string } = MAX_PLAIN_INT,
): number | undefined {
  if (v === undefined) return undefined;
  const s = String(v);
  if (!/^[1-9][0-9]*$/.test(s))
    throw new VerifierInputError("bad_option", flag, `expected a positive integer, got ${JSON.stringify(s)}`);
  if (BigInt(s) > BigInt(bound.max))
    throw new VerifierInputError(
      "bad_option",
      flag,
      `expected at most ${bound.max}${bound.unit}, got ${JSON.stringify(s)}`,
    );
  return Number(s);
}

/**
 * Human-readable table of a compute-receipt report. The invocation id and kid are the response's own
 * text: shown through `printable`; every line through `oneLine` (no control character is printed).
 */
export function formatReceiptTable(r: ComputeReceiptReport): string {
  const shown = (v: string | null | undefined): string =>
    v === null || v === undefined ? "(none)" : printable(v, 120);
  const lines = [
    `bench-bounty verify-receipt: invocation ${shown(r.invocation_id)}, kid ${shown(r.kid)}`,
    `receipt_hash: ${r.receipt_hash ?? "(not computable)"}`,
    "",
    `${"FACT".padEnd(16)} ${"STATE".padEnd(13)} DETAIL`,
  ];
  for (const [name, f] of Object.entries(r.facts)) {
    lines.push(`${name.padEnd(16)} ${f.state.padEnd(13)} ${f.reasons[0] ?? ""}`);
    for (const more of f.reasons.slice(1)) lines.push(`${" ".repeat(31)}${more}`);
  }
  lines.push("", r.ok ? "receipt: VERIFIED" : "receipt: NOT VERIFIED");
  return lines.map(oneLine).join("\n") + "\n";
}
