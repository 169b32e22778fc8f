/**
 * Text from others on the terminal of the tasks' user: what a contract or an RPC chose (a token's
 * `symbol()`, a revert reason, an indexer's error body) is printed through {@link chainText}, the one
 * rule for it here.
 */
import { evidence } from "./packages";

/**
 * What a terminal acts on, TAB and LF included (a task's line is one line): `TERMINAL_CONTROL_RANGES` of
 * `@bench-bounty/evidence`, the one definition the platform's `terminalText` and the verifier use too;
 * loaded on first use (`./packages`: `hardhat compile` runs on a fresh clone before the packages are built).
 */
let terminalControl: RegExp | undefined;
const controlPattern = (): RegExp => (terminalControl ??= evidence().terminalControlPattern());

/** How many characters of a token's `symbol()` the tasks show (USDC's is 4; the rest is cut). */
export const MAX_SYMBOL_CHARS = 40;

/** How many characters of a longer text from a contract or an RPC (a revert reason, an answer's body) are shown. */
export const MAX_CHAIN_TEXT_CHARS = 200;

/**
 * Text a contract or an RPC chose (a token's `symbol()`, a revert reason, an indexer's error body) as
 * the tasks print it, the one rule for it (probe21 B-F4: a stranger's token symbol erased the winner's
 * line, painted a fake credit with a fake claim command, set the window title and concealed the rest):
 * every character of the terminal control pattern ({@link controlPattern}) is written as a visible escape (`\x1b`, `\x0d`, `\u{202e}`),
 * and the result is cut to `max` UTF-16 code units, `...` included (never half of a surrogate pair).
 * Plain text prints as it is.
 */
export function chainText(text: string, max: number): string {
  const hex = (n: number, width: number): string => n.toString(16).padStart(width, "0");
  const long = text.length > max;
  const shown = (long ? text.slice(0, max) : text).replace(controlPattern(), (c) => {
    const cp = c.codePointAt(0)!;
    return cp < 0x100 ? `\\x${hex(cp, 2)}` : `\\u{${hex(cp, 4)}}`;
  });
  if (!long && shown.length <= max) return shown;
  let end = Math.max(0, max - 3);
  const last = shown.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end--; // do not keep a high surrogate without its pair
  return `${shown.slice(0, end)}...`;
}

/** A token's on-chain `symbol()` as the tasks print it ({@link chainText}, at most {@link MAX_SYMBOL_CHARS}); "tokens" when empty. */
export function tokenSymbolText(symbol: string): string {
  return symbol === "" ? "tokens" : chainText(symbol, MAX_SYMBOL_CHARS);
}
