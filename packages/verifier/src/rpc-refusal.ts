/**
 * An RPC's own JSON-RPC error answer, in its words: the one rule the verifier and the platform share
 * (the platform imports it from `@bench-bounty/verifier/rpc-refusal`; probe31 A-F2, probe35 B-F4).
 * @packageDocumentation
 */
import { BaseError, RpcError, RpcRequestError } from "viem";

/** The most characters of an RPC's own error message an error quotes ({@link rpcRefusalOf}). */
export const MAX_RPC_MESSAGE_CHARS = 300;

/**
 * The RPC's own JSON-RPC error answer, as {@link rpcRefusalOf} reads it.
 * - `code`: the error's `code` when it is a safe integer (a JSON-RPC error code), else `undefined`;
 * - `message`: when `wellFormed`, the error's `message`, whole (the RPC's own text); else the whole `error`
 *   value shown as JSON (at most {@link MAX_RPC_MESSAGE_CHARS} characters, every control character escaped);
 * - `wellFormed`: whether the error is an object with an integer `code` and a string `message` (JSON-RPC 2.0
 *   §5.1). An error that is not (`"error":"Unauthorized"`, `"message":5`, no message, `"code":"abc"`) is
 *   still the RPC's refusal of the call, said as such, never a crash (probe36 B-F1).
 */
export interface RpcRefusal {
  code: number | undefined;
  message: string;
  wellFormed: boolean;
}

/**
 * The RPC's own JSON-RPC error answer (`{code, message}`) inside viem error `e`, when viem only restated its
 * code in its own generic words (an `RpcError` such as `InvalidInputRpcError`, "Missing or invalid parameters.
 * Double check you have provided the correct parameters.", for any -32000: a provider's rate limit included,
 * probe31 A-F2); `undefined` when `e` carries no such answer (a transport failure, not a viem error) or viem
 * named the node's refusal itself from its text (insufficient funds, nonce too low), whose words are kept.
 * Any `error` value is taken (an RPC is a stranger: a string, a number, a message that is not text), see
 * {@link RpcRefusal}; a well-formed message is the RPC's, whole: callers cap it at
 * {@link MAX_RPC_MESSAGE_CHARS} ({@link describeRpcRefusal} does) and make it printable, saying what they
 * withhold first (a cut may leave part of it: probe40 V-F1). `redact` is applied to a malformed error's JSON
 * before it is cut here (default: none).
 */
export function rpcRefusalOf(
  e: unknown,
  redact: (text: string) => string = (text) => text,
): RpcRefusal | undefined {
  if (!(e instanceof BaseError)) return undefined;
  const answer = e.walk((x) => x instanceof RpcRequestError);
  if (!(answer instanceof RpcRequestError)) return undefined;
  const generic = e.walk((x) => x instanceof RpcError);
  const restated = generic instanceof RpcError ? generic.shortMessage : answer.shortMessage;
  if (!e.shortMessage.includes(restated)) return undefined;
  // viem's RpcRequestError keeps the response's `error` value, as the RPC sent it, as its cause
  const error: unknown = answer.cause;
  const fields =
    typeof error === "object" && error !== null && !Array.isArray(error)
      ? (error as Record<string, unknown>)
      : undefined;
  const code =
    typeof fields?.code === "number" && Number.isSafeInteger(fields.code) ? fields.code : undefined;
  if (code !== undefined && typeof fields?.message === "string")
    return { code, message: fields.message, wellFormed: true };
  return { code, message: asJson(error, redact), wellFormed: false };
}

/** Characters JSON.stringify leaves as they are that a terminal or a bidi-aware viewer would act on. */
const UNSAFE_IN_JSON = /[\u007f-\u009f\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

/**
 * `value` (a JSON answer's part) as JSON, said through `redact` first, then cut at
 * {@link MAX_RPC_MESSAGE_CHARS} characters, every control character escaped.
 */
function asJson(value: unknown, redact: (text: string) => string): string {
  const json = value === undefined ? "undefined" : (JSON.stringify(value) ?? String(value));
  return redact(json)
    .slice(0, MAX_RPC_MESSAGE_CHARS)
    .replace(UNSAFE_IN_JSON, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

/**
 * The refusal in words: `the RPC refused the call with JSON-RPC error -32000 "rate limit exceeded"`, the
 * message cut at {@link MAX_RPC_MESSAGE_CHARS} characters; one not well formed ({@link RpcRefusal}) is
 * `the RPC refused the call with a malformed JSON-RPC error: {"code":-32000,"message":5}`. The caller makes
 * the text printable and hides a URL's secret parts in `refusal.message` first.
 */
export function describeRpcRefusal(refusal: RpcRefusal): string {
  return refusal.wellFormed && refusal.code !== undefined
    ? `the RPC refused the call with JSON-RPC error ${refusal.code} "${refusal.message.slice(0, MAX_RPC_MESSAGE_CHARS)}"`
    : `the RPC refused the call with a malformed JSON-RPC error: ${refusal.message}`;
}
