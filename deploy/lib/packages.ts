/**
 * The ESM workspace packages the tasks use at run time, loaded on first use
 * (require(esm)) so that `hardhat` starts, and `hardhat compile` runs on a
 * fresh clone, before they are built. Only types are imported statically.
 */
import { TaskError } from "./errors";

type Contracts = typeof import("@bench-bounty/contracts");
type Evidence = typeof import("@bench-bounty/evidence");
/** `@bench-bounty/verifier/body` (typed from the package's main entry, which re-exports it). */
type VerifierBody = Pick<
  typeof import("@bench-bounty/verifier"),
  "fetchWithin" | "readBodyWithin" | "AnswerTimeoutError" | "AnswerTooLargeError"
>;

/** `@bench-bounty/verifier/indexer-status` (typed from the package's main entry, which re-exports it). */
type VerifierIndexerStatus = Pick<typeof import("@bench-bounty/verifier"), "statusEntry">;

const loaded = new Map<string, unknown>();

function load<T>(name: string): T {
  if (!loaded.has(name)) {
    try {
      // eslint-disable-next-line @typescript-eslint/no-require-imports -- lazy on purpose (module doc)
      loaded.set(name, require(name));
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code !== "MODULE_NOT_FOUND" && code !== "ERR_MODULE_NOT_FOUND") throw e;
      throw new TaskError(
        `${name} is not built (${(e as Error).message.split("\n")[0]}): run \`npx pnpm@12.4.2 build\` first.`,
      );
    }
  }
  return loaded.get(name) as T;
}

/** @bench-bounty/contracts: chains, address book, CREATE2 constants, status ladder, ABIs. */
export function contracts(): Contracts {
  return load<Contracts>("@bench-bounty/contracts");
}

/** @bench-bounty/evidence: the strict JSON parser, commitments, payout rules, selection. */
export function evidence(): Evidence {
  return load<Evidence>("@bench-bounty/evidence");
}

/**
 * `@bench-bounty/verifier/body`: the bounded http exchange (`fetchWithin`: the timeout to the body's
 * last byte, `AnswerTimeoutError`) and the bounded read of an answer (`readBodyWithin`,
 * `AnswerTooLargeError`), the ones the verifier and the client use; the tasks read the indexer with them.
 */
export function verifierBody(): VerifierBody {
  return load<VerifierBody>("@bench-bounty/verifier/body");
}

/**
 * `@bench-bounty/verifier/indexer-status`: the one reading of Ponder's `GET /status` answer (`statusEntry`:
 * a chain's entry and its indexed block), the verifier's too.
 */
export function verifierIndexerStatus(): VerifierIndexerStatus {
  return load<VerifierIndexerStatus>("@bench-bounty/verifier/indexer-status");
}
