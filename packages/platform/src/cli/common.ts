/**
 * What every platform command shares: the store and chain options, `--api-key` and the caller's
 * principal, opening the platform, printing, and the refusal wrapper (one line on stderr, exit 1).
 */
import { addressBook, addressBookEntry, PRIVATE_KEY_FORM, privateKeyProblem } from "@bench-bounty/contracts";
import { isEvidenceError } from "@bench-bounty/evidence";
import { optionSourceName } from "@bench-bounty/verifier/cli";
import { statSync } from "node:fs";
import { resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { Command, InvalidArgumentError, Option } from "commander";
import { isAddress, type Address, type Hex } from "viem";
import type { AnchorBatching } from "../anchor-batch.js";
import type { ChainConfig } from "../chain.js";
import type { BenchmarkRecord, FaultHooks } from "../context.js";
import { PlatformError } from "../errors.js";
import type { Principal } from "../identity/principal.js";
import type { PublishQuota } from "../publish.js";
import type { AnchorQuota } from "../runs.js";
import type { AgentQuota } from "../agents.js";
import { Platform } from "../platform.js";
import { bareOrigin, publicBaseUrlFault, publicOrigin } from "../redact.js";
import { ensureWritableDir, requireExistingStore, STORE_DIR_MODE } from "../store.js";
import { describePostgres } from "../store/engine.js";
import { shellWord, terminalJson, terminalText } from "../terminal.js";

/**
 * The key under which a command's options object carries how its refusals name each option
 * ({@link optionName}); set by {@link storeOptions} before the action runs. A symbol, so that it is no
 * option value (`Object.keys`, JSON) yet survives a spread (`{ ...o, rpcUrl: undefined }`).
 */
export const OPTION_NAMES: unique symbol = Symbol("bench-bounty option names");

export interface StoreOpts {
  /** How a refusal names an option (`--store`, or `BENCH_BOUNTY_STORE (the environment form of --store)`); see {@link optionName}. */
  [OPTION_NAMES]?: (flag: string) => string;
  store: string;
  apiKey?: string;
  rpcUrl?: string;
  chainId: string;
  bountyContract?: string;
  anchorRegistry?: string;
  usdc?: string;
  publicUrl?: string;
  receiptAnchoring: "immediate" | "batch";
  /** Blocks an award's block must have on top of it, itself included, before it is recorded (chain `awardConfirmations`). */
  awardConfirmations?: number;
}

export const int =
  (name: string, min = 0, max = Number.MAX_SAFE_INTEGER) =>
  (v: string) => {
    const n = /^\s*-?\d+\s*$/.test(v) ? Number(v) : NaN;
    if (!Number.isSafeInteger(n) || n < min || n > max)
      throw new InvalidArgumentError(
        max === Number.MAX_SAFE_INTEGER
          ? `${name} must be an integer >= ${min}`
          : `${name} must be an integer in ${min}..${max}`,
      );
    return n;
  };

/**
 * A command line to run with `sh -c` (`--agent`): not empty or blank (probe14 D3-F14: `--agent ""` ran
 * `sh -c ""`, which answers nothing and exits 0, and used up an attempt with every task unanswered).
 * @throws InvalidArgumentError (commander prints it naming the option)
 */
export const shellCommand = (v: string): string => {
  if (v.trim() === "") throw new InvalidArgumentError("the agent command is empty");
  return v;
};

/**
 * A `--store` directory (or `BENCH_BOUNTY_STORE`): not empty (probe33 B-F5: an empty value made the current
 * directory the store, `platform.sqlite` and `runs/` created among whatever else was there).
 * @throws InvalidArgumentError (commander prints it naming the option, or the variable it came from)
 */
export const storeDir = (v: string): string => {
  if (v === "")
    throw new InvalidArgumentError(
      "the store directory is empty: name one, or leave the option out for ./.bench-bounty",
    );
  return v;
};

/**
 * An `--api-key` (or `BENCH_BOUNTY_API_KEY`): not empty (probe40 B-F1: an empty key, e.g. `--api-key
 * "$BENCH_BOUNTY_API_KEY"` in a shell without the variable, answered "invalid API key: none given").
 * @throws InvalidArgumentError (commander prints it naming the option, or the variable it came from)
 */
export const apiKeyValue = (v: string): string => {
  if (v === "")
    throw new InvalidArgumentError(
      "the API key is empty: set BENCH_BOUNTY_API_KEY to your API key in this shell, exported (a key in the arguments is visible to every local user in ps)",
    );
  return v;
};

/**
 * Whether a URL's host is this machine's loopback (`localhost`, a `*.localhost` name, 127.0.0.0/8, `::1`):
 * what leaves it travels no network.
 * @param hostname a `URL.hostname` (an IPv6 literal in brackets or not)
 */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, "").toLowerCase();
  return host === "localhost" || host.endsWith(".localhost") || host === "::1" || /^127\./.test(host);
}

/** USDC decimals: `--pool` is given in USDC like the Hardhat task `bounty:lock`. */
const USDC_DECIMALS = 6;

/**
 * Help of `--api-key`: the environment variable is preferred, since every local user reads a process's
 * arguments (`ps`), not its environment (issue 13 re-probe O7). The flag keeps working.
 */
export const API_KEY_HELP =
  "act as this account; prefer the env BENCH_BOUNTY_API_KEY: a key in the arguments is visible to every local user in ps (default: the local operator, who owns no agents)";

/**
 * Parses a decimal USDC amount (`100`, `12.5`) exactly into 6-decimal base units (`12.5` -> 12500000n).
 * @throws InvalidArgumentError (commander prints it naming `--pool`) on anything else: signs, exponents,
 *   more than 6 decimals, zero
 */
export function parseUsdcAmount(v: string): bigint {
  const m = /^(\d+)(?:\.(\d+))?$/.exec(v.trim());
  if (!m)
    throw new InvalidArgumentError(
      `pool must be a positive decimal USDC amount (e.g. 100 or 12.5), got ${v}`,
    );
  const frac = m[2] ?? "";
  if (frac.length > USDC_DECIMALS)
    throw new InvalidArgumentError(`pool has more than ${USDC_DECIMALS} decimals (USDC): ${v}`);
  const units = BigInt(m[1]!) * 10n ** BigInt(USDC_DECIMALS) + BigInt(frac.padEnd(USDC_DECIMALS, "0") || "0");
  if (units === 0n) throw new InvalidArgumentError("pool must be more than 0");
  return units;
}

/**
 * How a refusal names the option `flag` of the command whose options `o` are: the flag as given, or
 * `VAR (the environment form of --flag)` when its value came from the environment variable
 * (`optionSourceName` of `@bench-bounty/verifier/cli`, the one rule of every program; probe31 B-F6:
 * `BENCH_BOUNTY_STORE=afile` was refused as `--store afile`, a flag nobody gave). Options not parsed
 * by a command (a test's or a library's plain object) name the flag.
 * @param o the options of a command built with {@link storeOptions} (or any object of them)
 * @param flag the option's long flag, e.g. `"--store"`
 */
export function optionName(o: { [OPTION_NAMES]?: (flag: string) => string }, flag: string): string {
  return o[OPTION_NAMES]?.(flag) ?? flag;
}

/**
 * What `--award-confirmations`' help says of a command that records it (platform `Platform.open`: the store's
 * `meta.award_confirmations`, read by every award on the store, `awardDepth`; store28 R-F2): a value given once
 * is kept, and every later award waits as long without the flag (probe36 C-N1: the help said neither).
 */
export const AWARD_DEPTH_KEPT =
  "Kept in the store (meta.award_confirmations) once given (the flag or its env) with --rpc-url: every later award on this store, of every benchmark and process (serve's too), waits as long without the flag, until it is given again. Never set: 1, the block the award is mined in";

/** What `--award-confirmations`' help says of a read-only command (`evidence`), which does not record it. */
export const AWARD_DEPTH_READ_ONLY =
  "This command only reads: the value is not kept in the store, and the store's kept one (set by another command's --award-confirmations) is used instead when there is one. Never set: 1, the block the award is mined in";

/**
 * The store, chain and key options of a command. `receiptAnchoring` is the `--receipt-anchoring`
 * default this command really uses, shown by its `--help` (one source: `serve` batches, the others
 * anchor each receipt at once; probe11 O14). `actsAsAccount: false` (`serve`, which acts as no
 * account: each request carries its own key) leaves `--api-key` out of the help and does not read
 * `BENCH_BOUNTY_API_KEY`; the option is still parsed, so that the command can refuse it with
 * {@link SERVE_API_KEY_REFUSAL} rather than commander's bare "unknown option" (probe27 A-F7: `serve
 * --api-key junk` started silently, the key never used). Before the action runs, its options object is
 * given {@link OPTION_NAMES}, so that every later check names a value from the environment by its
 * variable ({@link optionName}). `keepsAwardDepth: false` (`evidence`, read-only: platform
 * `keepStoreAwardDepth`) says in the help that its `--award-confirmations` is not kept in the store
 * ({@link AWARD_DEPTH_READ_ONLY}); every other command's help says it is ({@link AWARD_DEPTH_KEPT}).
 */
export function storeOptions(
  cmd: Command,
  {
    receiptAnchoring = "immediate",
    actsAsAccount = true,
    keepsAwardDepth = true,
  }: { receiptAnchoring?: "immediate" | "batch"; actsAsAccount?: boolean; keepsAwardDepth?: boolean } = {},
): Command {
  const withStore = cmd
    .addOption(
      new Option("--store <dir>", "store directory")
        .env("BENCH_BOUNTY_STORE")
        .default("./.bench-bounty")
        .argParser(storeDir),
    )
    .addOption(
      new Option("--rpc-url <url>", "JSON-RPC URL (enables anchoring and the award)").env(
        "BENCH_BOUNTY_RPC_URL",
      ),
    )
    .addOption(
      new Option("--chain-id <id>", "chain id")
        .env("BENCH_BOUNTY_CHAIN_ID")
        .default("8453")
        // checked where it is given, so that commander names the variable when it came from there
        .argParser((v) => String(int("--chain-id", 1)(v))),
    )
    .addOption(
      new Option("--bounty-contract <address>", "BenchmarkBounty address").env(
        "BENCH_BOUNTY_BOUNTY_CONTRACT",
      ),
    )
    .addOption(
      new Option("--anchor-registry <address>", "AnchorRegistry address").env("BENCH_BOUNTY_ANCHOR_REGISTRY"),
    )
    .addOption(new Option("--usdc <address>", "USDC token address").env("BENCH_BOUNTY_USDC"))
    .addOption(
      new Option(
        "--award-confirmations <n>",
        `blocks an award's block must have on top of it, itself included, before the award is recorded and its pack minted (1..1000; more on a chain that may reorganise recent blocks). ${keepsAwardDepth ? AWARD_DEPTH_KEPT : AWARD_DEPTH_READ_ONLY}`,
      )
        .env("BENCH_BOUNTY_AWARD_CONFIRMATIONS")
        .argParser(int("--award-confirmations", 1, 1000)),
    )
    .addOption(
      new Option("--public-url <url>", "public base URL of the evidence door (receipt_url)").env(
        "BENCH_BOUNTY_PUBLIC_URL",
      ),
    )
    .addOption(
      new Option("--receipt-anchoring <mode>", "anchor each receipt at finalize, or batch them (anchor)")
        .choices(["immediate", "batch"])
        .default(receiptAnchoring),
    )
    .hook("preAction", (self) => {
      const o: StoreOpts = self.opts();
      o[OPTION_NAMES] = (flag) => optionSourceName(self, flag);
    });
  return actsAsAccount
    ? withStore.addOption(new Option("--api-key <key>", API_KEY_HELP).env(API_KEY_ENV).argParser(apiKeyValue))
    : withStore.addOption(new Option("--api-key <key>").hideHelp().argParser(apiKeyValue));
}

/**
 * Why a command that acts as no account (`serve`) refuses `--api-key`: the message of its
 * `invalid_option` (field `api-key`), naming the variable that does set the operator's key.
 */
export const SERVE_API_KEY_REFUSAL =
  "serve takes no --api-key: it acts as no account (each request carries its own key); the operator's key " +
  "(who may award over the API) is read from the environment variable BENCH_BOUNTY_OPERATOR_KEY only";

export { shellWord };

/**
 * The clone's `bin/bench-bounty`, by its absolute path (this module is `packages/platform/src/cli/` or
 * `packages/platform/dist/cli/` of the clone).
 */
const CLONE_BIN = fileURLToPath(new URL("../../../../bin/bench-bounty", import.meta.url));

/** Whether `path` is a regular file (following links); a path that cannot be examined is not one. */
function isRegularFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch (e) {
    if (typeof (e as { code?: unknown }).code === "string") return false; // ENOENT, ENOTDIR, EACCES: not there for us
    throw e;
  }
}

/**
 * How a printed command names this program, so that it works when pasted as printed, from any directory
 * (probe15 B-F12: `bench-bounty ...` is not on PATH in a fresh clone): the path it was invoked by, which
 * `./bin/bench-bounty` passes in `BENCH_BOUNTY_INVOKED_AS` (its `$0` made absolute: probe35 V-F4), else the clone's
 * `bin/bench-bounty` by its absolute path, else (not in a clone) `node` and the script this process
 * runs, both absolute; each shell-quoted. Never `npx` with the bare name (probe35 B-F1: outside the clone npx
 * asks the public registry for a package of that name, and would run whatever holds it there with the
 * API key in its environment).
 * @returns the program's words, ready to be followed by a command and its arguments
 */
export function invokedAs(): string {
  const invoked = process.env.BENCH_BOUNTY_INVOKED_AS;
  if (invoked) return shellWord(invoked);
  if (isRegularFile(CLONE_BIN)) return shellWord(CLONE_BIN);
  return [process.execPath, resolve(process.argv[1] ?? "")].map(shellWord).join(" ");
}

/**
 * The line a printed command adds when the store is PostgreSQL (probe17 B-F3: pasted without
 * `DATABASE_URL`, the command looked for a SQLite store in `--store`): the URL is read from the
 * environment, never printed (it carries a password); the line names the database by host:port/db.
 * @returns `""` when the store is SQLite (`DATABASE_URL` unset or empty)
 */
export function databaseUrlNote(): string {
  const url = process.env.DATABASE_URL;
  if (url === undefined || url === "") return "";
  return `\n  (with DATABASE_URL set in that shell as for this command: the store is ${describePostgres(url)}; the URL is not printed, it carries a password)`;
}

/** The environment variable of `--api-key`. */
const API_KEY_ENV = "BENCH_BOUNTY_API_KEY";

/** The environment variable of `--rpc-url`. */
const RPC_URL_ENV = "BENCH_BOUNTY_RPC_URL";

/**
 * The command that retries what is pending for `slug` (`bench-bounty anchor <slug>`, the program named
 * by {@link invokedAs}), with the store and chain options of this invocation, so it works when pasted
 * as printed (after `env -u BENCH_BOUNTY_API_KEY` when that is set: `anchor` is the keyless operator's). The RPC URL is printed only
 * when it is a bare origin without userinfo; otherwise (a provider's key in its userinfo, path or
 * query: probe10 R2) the command has no `--rpc-url` and reads the URL from `BENCH_BOUNTY_RPC_URL` (the
 * option's variable), never in argv (probe34 B-F3), and a second line says to set it (naming the URL by
 * its origin only): "first set" when it was given as `--rpc-url`, "set it to the same URL where you paste
 * it" when this invocation read it from that variable (probe38 C-N2: the line was missing, and the command
 * pasted in another shell answered "no chain configured").
 */
export function anchorRetryCommand(slug: string, o: StoreOpts): string {
  return storeCommand("anchor", slug, o);
}

/**
 * The command that reads where the award of `slug` is on the chain (`bench-bounty evidence <slug>`
 * with `--rpc-url`), printed by `evidence` when it answered `award_pending` without a chain (probe24
 * C-F4): the store and contract options of this invocation, the RPC URL read from `BENCH_BOUNTY_RPC_URL`
 * (a second line says to set it); it needs no signing key (the chain is opened read-only).
 */
export function evidenceChainCommand(slug: string, o: StoreOpts, known: KnownChain = {}): string {
  return storeCommand("evidence", slug, o, known);
}

/**
 * What the store knows of a benchmark's chain (`knownChainOf`): the attached bounty's recorded chain id and
 * BenchmarkBounty contract, the registry its commitment was anchored in. A printed command carries them
 * where the invocation gave none (probe26 C-F8: `evidence` printed a command without them, refused on a
 * chain without an address book entry, "no contract addresses for chain id 8453").
 */
export interface KnownChain {
  chainId?: number;
  bountyContract?: string;
  anchorRegistry?: string;
}

/** The {@link KnownChain} of benchmark `b` as stored. */
export function knownChainOf(b: BenchmarkRecord): KnownChain {
  return {
    ...(b.bounty ? { chainId: b.bounty.chain_id, bountyContract: b.bounty.bounty_contract } : {}),
    ...(b.commitment_anchor ? { anchorRegistry: b.commitment_anchor.registry_address } : {}),
  };
}

/**
 * The command that mints (and anchors) a confirmed award's pack (`bench-bounty award <slug>` with the
 * chain options), printed by `evidence` when the pack is not minted and it has no key to mint it with
 * (probe25 B-F6): it needs `BENCH_BOUNTY_PRIVATE_KEY` (a line says so), and the RPC URL as
 * {@link evidenceChainCommand} gives it.
 */
export function awardMintCommand(slug: string, o: StoreOpts, known: KnownChain = {}): string {
  return `${storeCommand("award", slug, o, known)}\n  (with BENCH_BOUNTY_PRIVATE_KEY set to the platform account's key: minting signs the pack's anchor)`;
}

/**
 * The command that attaches the author's live bounty `bountyId` to `slug` (`bench-bounty attach <slug>
 * <id>`), printed by `lock` when the benchmark's root is already bound to that bounty with other terms
 * (probe27 C-F4): the store and chain options of this invocation, the RPC URL as
 * {@link anchorRetryCommand} gives it, so it works when pasted; with `author` (the lock's author address),
 * `--author` naming it, which an attach by another than the benchmark's author needs (probe38 C-F1).
 */
export function attachCommand(slug: string, bountyId: string, o: StoreOpts, author?: string): string {
  return storeCommand(
    "attach",
    slug,
    o,
    {},
    author === undefined ? [bountyId] : [bountyId, "--author", author],
  );
}

/**
 * `<program> <command> <slug> --store ...` with this invocation's chain options ({@link anchorRetryCommand}):
 * without `--rpc-url`, it reads the URL from `BENCH_BOUNTY_RPC_URL`, with a line saying to set it (always:
 * whether the URL was given as `--rpc-url`, in that variable, or not at all).
 */
function storeCommand(
  command: "anchor" | "evidence" | "award" | "attach",
  slug: string,
  o: StoreOpts,
  known: KnownChain = {},
  args: string[] = [],
): string {
  // `anchor` is the keyless operator's (probe15 B-F11): a key exported in this shell would make the
  // pasted command refused (probe16 B-F3), so the command drops it
  const keyless =
    command === "anchor" && process.env[API_KEY_ENV] !== undefined ? ["env", "-u", API_KEY_ENV] : [];
  const words = [
    ...keyless,
    invokedAs(),
    ...[command, slug, ...args, "--store", resolve(o.store)].map(shellWord),
  ];
  let note = "";
  // An URL that may carry a key is never a word of the command: the command reads it from
  // BENCH_BOUNTY_RPC_URL itself (`--rpc-url`'s variable), so it is not in argv, where `ps` shows it to
  // every local user (probe34 B-F3: `--rpc-url "$BENCH_BOUNTY_RPC_URL"` was expanded by the shell)
  if (o.rpcUrl === undefined) {
    // `evidence`, `award` and `attach` are printed to be run with a chain (`anchor` without one lists what it cannot anchor)
    if (command !== "anchor")
      note = `\n  (first set ${RPC_URL_ENV} to the chain's JSON-RPC URL: the command reads it from there; on a chain without an address book entry add --bounty-contract and --anchor-registry)`;
  } else {
    const origin = bareOrigin(o.rpcUrl);
    if (origin !== undefined && !/^[^:/?#]+:\/\/[^/?#]*@/.test(o.rpcUrl))
      words.push("--rpc-url", shellWord(origin));
    else if (process.env[RPC_URL_ENV] !== o.rpcUrl)
      note = `\n  (first set ${RPC_URL_ENV} to the --rpc-url given for ${publicOrigin(o.rpcUrl)}: the command reads it from there; it is not printed, it may carry a key)`;
    // read from the variable here too: pasted where it is not set, the command has no chain (probe38
    // C-N2: "no chain configured"), so the line names it all the same
    else
      note = `\n  (the command reads the JSON-RPC URL from ${RPC_URL_ENV}, as this one did for ${publicOrigin(o.rpcUrl)}: where you paste it, set that variable to the same URL; it is not printed, it may carry a key)`;
  }
  // the invocation's options, else what the store recorded (the bounty's chain and contract, the
  // commitment's registry): the command works as printed where no address book entry exists
  const rest = ["--chain-id", known.chainId !== undefined ? String(known.chainId) : o.chainId];
  const bountyContract = o.bountyContract ?? known.bountyContract;
  const anchorRegistry = o.anchorRegistry ?? known.anchorRegistry;
  if (bountyContract !== undefined) rest.push("--bounty-contract", bountyContract);
  if (anchorRegistry !== undefined) rest.push("--anchor-registry", anchorRegistry);
  if (o.usdc !== undefined) rest.push("--usdc", o.usdc);
  if (o.awardConfirmations !== undefined) rest.push("--award-confirmations", String(o.awardConfirmations));
  return [...words, ...rest.map(shellWord)].join(" ") + note + databaseUrlNote();
}

/** The caller: the account of `--api-key` (env `BENCH_BOUNTY_API_KEY`), else the local operator. */
export async function principalOf(platform: Platform, o: StoreOpts): Promise<Principal> {
  return o.apiKey !== undefined ? platform.authenticate(o.apiKey) : platform.localOperator();
}

/**
 * Checks the chain options that were given, whether or not `--rpc-url` enables the chain: the URL is
 * http(s) (the gateway's transport is viem `http`), each contract address is 0x + 40 hex. Nothing is contacted.
 * @throws PlatformError `invalid_option` naming the option (its variable when it came from there, {@link optionName})
 */
export function checkChainOptions(o: StoreOpts): void {
  if (o.rpcUrl !== undefined) {
    let protocol: string | null;
    try {
      protocol = new URL(o.rpcUrl).protocol;
    } catch (e) {
      if (!(e instanceof TypeError)) throw e; // TypeError: not a URL at all
      protocol = null;
    }
    if (protocol !== "http:" && protocol !== "https:")
      throw new PlatformError(
        "invalid_option",
        // not echoed: a provider's URL carries its key
        `${optionName(o, "--rpc-url")} must be an http:// or https:// URL (the value given is not printed: it may carry a key)`,
        { field: "rpc-url" },
      );
  }
  for (const [field, v] of [
    ["bounty-contract", o.bountyContract],
    ["anchor-registry", o.anchorRegistry],
    ["usdc", o.usdc],
  ] as const) {
    if (v !== undefined && !isAddress(v, { strict: false }))
      throw new PlatformError(
        "invalid_option",
        `${optionName(o, `--${field}`)} must be an address (0x + 40 hex), got ${v}`,
        {
          field,
        },
      );
  }
}

/**
 * Checks `--public-url` (env `BENCH_BOUNTY_PUBLIC_URL`): an http(s) origin with an optional path
 * ({@link publicBaseUrlFault}); userinfo, a query or a fragment is refused naming the part, never the value.
 * @throws PlatformError `invalid_option` with field `public-url`, the message naming the option ({@link optionName})
 */
export function checkPublicUrl(o: Pick<StoreOpts, "publicUrl" | typeof OPTION_NAMES>): void {
  if (o.publicUrl === undefined) return;
  const fault = publicBaseUrlFault(o.publicUrl);
  if (fault !== undefined)
    throw new PlatformError(
      "invalid_option",
      fault === "not an http(s) URL"
        ? `${optionName(o, "--public-url")} must be an http:// or https:// URL (the value given is not printed)`
        : `${optionName(o, "--public-url")} must be an http(s) origin with an optional path: it carries ${fault} (the value given is not printed)`,
      { field: "public-url" },
    );
}

/**
 * The private key held in the environment variable `variable`, checked with the contracts' one rule
 * (`privateKeyProblem`: 0x + 64 hex, a value in 1..n-1 of secp256k1) before viem sees it.
 * @param purpose what the key is for, in the message when the variable is unset (`to use the chain`)
 * @throws PlatformError `invalid_option` with field `variable`, naming the variable and never its value
 *   (probe15 B-F7: viem's own error printed the key in decimal, as an internal error)
 */
export function signerKey(variable: string, purpose: string): Hex {
  const key = process.env[variable];
  if (!key)
    throw new PlatformError("invalid_option", `set ${variable} (${PRIVATE_KEY_FORM}) ${purpose}`, {
      field: variable,
    });
  const problem = privateKeyProblem(key);
  if (problem !== null)
    throw new PlatformError(
      "invalid_option",
      `${variable} is not a private key: ${problem} (the value is not printed)`,
      { field: variable },
    );
  return key as Hex;
}

/**
 * The chain of a command's flags, or undefined without `--rpc-url`. The platform account signs with
 * `BENCH_BOUNTY_PRIVATE_KEY`; a command that only reads (`evidence`, probe24 C-F4) passes `readAs`, the
 * platform account's address, and the chain opens read-only when that variable is unset.
 * @throws PlatformError `invalid_option` naming the option or the variable
 */
export function chainConfig(o: StoreOpts, readAs?: Address): ChainConfig | undefined {
  checkChainOptions(o);
  if (!o.rpcUrl) return undefined;
  const chainId = Number(o.chainId);
  if (!Number.isSafeInteger(chainId) || chainId <= 0)
    throw new PlatformError("invalid_option", "--chain-id must be a positive integer", { field: "chain-id" });
  const key =
    readAs !== undefined && !process.env.BENCH_BOUNTY_PRIVATE_KEY
      ? undefined
      : signerKey("BENCH_BOUNTY_PRIVATE_KEY", "to use the chain");
  // Chains without an address book entry (a local node) name their contracts with options.
  const book: { benchmarkBounty: string | null; anchorRegistry: string | null; usdc: string } | null =
    Object.hasOwn(addressBook, String(chainId)) ? addressBookEntry(chainId) : null;
  const bounty = o.bountyContract ?? book?.benchmarkBounty ?? null;
  const registry = o.anchorRegistry ?? book?.anchorRegistry ?? null;
  if (!bounty || !registry) {
    throw new PlatformError(
      "invalid_option",
      `no contract addresses for chain id ${chainId}: pass --bounty-contract and --anchor-registry. ` +
        "On a local node, `npx hardhat bounty:deploy --network localhost` deploys them and records them in " +
        "deploy/.local/deployments.json (see the README's serve commands); on Base or Base Sepolia, " +
        "`npx hardhat bounty:deploy --network base` (or baseSepolia) fills the address book packages/contracts/deployments.json",
      { field: "bounty-contract" },
    );
  }
  const usdc = o.usdc ?? book?.usdc;
  return {
    rpcUrl: o.rpcUrl,
    chainId,
    contracts: {
      benchmarkBounty: bounty as Address,
      anchorRegistry: registry as Address,
      ...(usdc ? { usdc: usdc as Address } : {}),
    },
    ...(key !== undefined ? { privateKey: key } : { readAs: readAs! }),
    ...(o.awardConfirmations !== undefined ? { awardConfirmations: o.awardConfirmations } : {}),
  };
}

/** Options of {@link openPlatform} beyond the command's flags. */
export interface OpenPlatformOptions {
  /**
   * The command only reads, or needs a stored benchmark or run: a missing SQLite store is refused
   * (`no store at ...`) and nothing is created (a PostgreSQL database is migrated as on every open).
   */
  existing?: boolean;
  /** The local runner's checkpoints live in `<--store>/runs` (created), also on PostgreSQL. */
  localRuns?: boolean;
  /** A read-only command (`evidence`): `--award-confirmations` is not recorded as the store's (platform `keepStoreAwardDepth`). */
  keepStoreAwardDepth?: boolean;
  /**
   * `serve` only: this process awards, so its signing address is recorded as the store's service
   * awarder (platform `recordServiceAwarder`; probe36 V-F6: `account create --rpc-url` with another key
   * replaced it).
   */
  recordServiceAwarder?: boolean;
  /** The operator's API key (`serve` reads it from `BENCH_BOUNTY_OPERATOR_KEY`). */
  operatorKey?: string;
  /** Test only: fault-injection hooks (crash tests); no command sets them. */
  faults?: FaultHooks;
  /** Batch receipt and commitment anchors, flushed on a timer (`serve`: `--anchor-flush-ms`). */
  anchorBatching?: AnchorBatching;
  /** The publish quota (`serve`: `--publish-budget-all`); default the platform's. */
  publishQuota?: PublishQuota;
  /** The batched-anchoring budget (`serve`: `--anchor-budget-per-account`, `--anchor-budget-all`); default the platform's. */
  batchAnchorQuota?: AnchorQuota;
  /** The agent quota (`serve`: `--agents-per-account`, `--agents-per-benchmark`); default the platform's. */
  agentQuota?: AgentQuota;
  /** Bytes of dataset rows one account may keep stored (`serve`: `--dataset-bytes-per-account`); default the platform's. */
  datasetBytesPerAccount?: number;
  /** Bytes of dataset rows all accounts may keep stored together (`serve`: `--dataset-bytes-all`); default the platform's. */
  datasetBytesAllAccounts?: number;
  /** Bytes of answers the runs of one account may keep stored (`serve`: `--answer-bytes-per-account`); default the platform's. */
  answerBytesPerAccount?: number;
  /** Bytes of answers the runs of all accounts may keep stored together (`serve`: `--answer-bytes-all`); default the platform's. */
  answerBytesAllAccounts?: number;
  /**
   * Milliseconds `award` waits for its transaction before answering `award_pending` (chain
   * `awardWaitMs`); `serve` keeps it under its request time limit. Default the platform's (180 s).
   */
  awardWaitMs?: number;
  /**
   * The platform account's address for a command that only reads the chain (`evidence`): without
   * `BENCH_BOUNTY_PRIVATE_KEY` the chain opens read-only as this account ({@link chainConfig}).
   */
  readAs?: Address;
}

/**
 * Makes `<store>/runs`, the runner's directory of checkpoints and agent logs, when the SQLite store does
 * not (PostgreSQL, `run --server`): it and every missing level above it {@link STORE_DIR_MODE}, as the
 * store's own (probe24 B-F4: `run --server --store DIR` made them 0755).
 * @param option how a refusal names the option that gave `store` ({@link optionName}; default `--store`)
 * @returns the directory, absolute
 * @throws PlatformError `invalid_option` naming `option` ({@link ensureWritableDir})
 */
export function ensureRunsDir(store: string, option = "--store"): string {
  const runsDir = resolve(store, "runs");
  ensureWritableDir(runsDir, option, STORE_DIR_MODE);
  return runsDir;
}

/**
 * Opens the store the flags and the environment name, the same way for every command (`serve`
 * included): PostgreSQL when `DATABASE_URL` is set (`postgresql://user:password@host:5432/db`; `--store`
 * then holds only the local runner's checkpoints), else the SQLite store in `--store DIR`.
 * The options, then the store (created level by level) are checked before anything else: no work,
 * nothing sent, nothing created on bad options.
 * @returns the platform and the database it uses, for banners (`sqlite /abs/path/platform.sqlite` or
 *   `postgresql host:port/db`: never a user or password)
 * @throws PlatformError `invalid_option` (a malformed `DATABASE_URL`, not echoed), `no_store`, `invalid_store`
 */
export async function openStore(
  o: StoreOpts,
  more: OpenPlatformOptions = {},
): Promise<{ platform: Platform; database: string }> {
  checkPublicUrl(o);
  const configured = chainConfig(o, more.readAs);
  const chain =
    configured && more.awardWaitMs !== undefined
      ? { ...configured, awardWaitMs: more.awardWaitMs }
      : configured;
  const common = {
    receiptAnchoring: o.receiptAnchoring,
    ...(chain ? { chain } : {}),
    ...(o.publicUrl ? { publicBaseUrl: o.publicUrl } : {}),
    ...(more.operatorKey ? { operatorKey: more.operatorKey } : {}),
    ...(more.faults ? { faults: more.faults } : {}),
    ...(more.existing ? { existingStore: true } : {}),
    ...(more.keepStoreAwardDepth ? { keepStoreAwardDepth: true } : {}),
    ...(more.recordServiceAwarder ? { recordServiceAwarder: true } : {}),
    ...(more.anchorBatching ? { anchorBatching: more.anchorBatching } : {}),
    ...(more.publishQuota ? { publishQuota: more.publishQuota } : {}),
    ...(more.batchAnchorQuota ? { batchAnchorQuota: more.batchAnchorQuota } : {}),
    ...(more.agentQuota ? { agentQuota: more.agentQuota } : {}),
    ...(more.datasetBytesPerAccount !== undefined
      ? { datasetBytesPerAccount: more.datasetBytesPerAccount }
      : {}),
    ...(more.datasetBytesAllAccounts !== undefined
      ? { datasetBytesAllAccounts: more.datasetBytesAllAccounts }
      : {}),
    ...(more.answerBytesPerAccount !== undefined
      ? { answerBytesPerAccount: more.answerBytesPerAccount }
      : {}),
    ...(more.answerBytesAllAccounts !== undefined
      ? { answerBytesAllAccounts: more.answerBytesAllAccounts }
      : {}),
  };
  const url = process.env.DATABASE_URL;
  if (url !== undefined && url !== "") {
    if (!/^postgres(ql)?:\/\//.test(url))
      throw new PlatformError(
        "invalid_option",
        // not echoed: a malformed URL cannot be parsed, so its password could not be masked
        "DATABASE_URL must be a postgresql:// URL (postgresql://user:password@host:5432/db); unset it to use --store DIR (SQLite)",
        { field: "DATABASE_URL" },
      );
    const runsDir = resolve(o.store, "runs");
    if (more.localRuns) ensureRunsDir(o.store, optionName(o, "--store"));
    const platform = await Platform.open({
      ...common,
      database: { engine: "postgres", url },
      ...(more.localRuns ? { runsDir } : {}),
    });
    return { platform, database: platform.ctx.store.description };
  }
  if (more.existing) requireExistingStore(o.store, optionName(o, "--store"));
  else ensureWritableDir(o.store, optionName(o, "--store"), STORE_DIR_MODE);
  const platform = await Platform.open({ ...common, dir: o.store });
  return { platform, database: `sqlite ${resolve(o.store, "platform.sqlite")}` };
}

/**
 * Opens the platform of a command ({@link openStore}).
 * @param existing see {@link OpenPlatformOptions.existing}
 */
export async function openPlatform(
  o: StoreOpts,
  existing = false,
  more: OpenPlatformOptions = {},
): Promise<Platform> {
  return (await openStore(o, { ...more, existing })).platform;
}

/**
 * Opens the platform of a command ({@link openPlatform}), runs `fn` on it and closes it, whether `fn`
 * returns or throws.
 */
export async function withPlatform(
  o: StoreOpts,
  existing: boolean,
  fn: (platform: Platform) => Promise<unknown>,
  more: OpenPlatformOptions = {},
): Promise<void> {
  const platform = await openPlatform(o, existing, more);
  try {
    await fn(platform);
  } finally {
    await platform.close();
  }
}

/**
 * Prints a command's JSON result on stdout (bigints as decimal strings), terminal-safe
 * ({@link terminalJson}: answers, names and messages of others may carry control characters).
 */
export function print(value: unknown): void {
  process.stdout.write(terminalJson(value) + "\n");
}

/**
 * Wraps an action: refusals print `error: ...` and details on stderr and exit 1, never a stack trace.
 * The message and details may carry text of others (an agent's stderr, a server's or a chain's
 * message): both are written terminal-safe ({@link terminalText}, {@link terminalJson}).
 */
export function action<A extends unknown[]>(
  fn: (...args: A) => Promise<void> | void,
): (...args: A) => Promise<void> {
  return async (...args: A) => {
    try {
      await fn(...args);
    } catch (e) {
      if (e instanceof PlatformError) {
        process.stderr.write(`error: ${terminalText(e.message)}\n`);
        if (Object.keys(e.details).length > 0)
          process.stderr.write(terminalJson({ code: e.code, details: e.details }) + "\n");
      } else if (isEvidenceError(e)) {
        process.stderr.write(`error: ${terminalText(e.message)} (${e.code})\n`);
      } else throw e;
      process.exitCode = 1;
    }
  };
}
