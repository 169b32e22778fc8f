/**
 * An RPC's own JSON-RPC error answer, in its words: the one rule the verifier and the platform share
 * (the platform imports it from `@bench-bounty/verifier/rpc-refusal`; probe31 A-F2, probe35 B-F4).
 * @packageDocumentation
 */
import { BaseError, RpcError, RpcRequestError } from "viem";

/** The most characters of an RPC's own error message an error quotes ({@link rpcRefusalOf}). */
export const MAX_RPC_MESSAGE_CHARS = 300;

/**
 * The RPC's own JSON-RPC error answer (`{code, message}`) inside viem error `e`, when viem only restated its
 * code in its own generic words (an `RpcError` such as `InvalidInputRpcError`, "Missing or invalid parameters.
 * Double check you have provided the correct parameters.", for any -32000: a provider's rate limit included,
 * probe31 A-F2); `undefined` when `e` carries no such answer (a transport failure, not a viem error) or viem
 * named the node's refusal itself from its text (insufficient funds, nonce too low), whose words are kept.
 * The message is the RPC's, whole: callers cap it at {@link MAX_RPC_MESSAGE_CHARS} and make it printable.
 */
export function rpcRefusalOf(e: unknown): { code: number; message: string } | undefined {
  if (!(e instanceof BaseError)) return undefined;
  const answer = e.walk((x) => x instanceof RpcRequestError);
  if (!(answer instanceof RpcRequestError)) return undefined;
  const generic = e.walk((x) => x instanceof RpcError);
  const restated = generic instanceof RpcError ? generic.shortMessage : answer.shortMessage;
  if (!e.shortMessage.includes(restated)) return undefined;
  return { code: answer.code, message: answer.details };
}

/**
 * The refusal in words, `the RPC refused the call with JSON-RPC error -32000 "rate limit exceeded"`, the
 * message cut at {@link MAX_RPC_MESSAGE_CHARS} characters (the caller makes it printable and hides a URL's
 * secret parts in it).
 */
export function describeRpcRefusal(refusal: { code: number; message: string }): string {
  return `the RPC refused the call with JSON-RPC error ${refusal.code} "${refusal.message.slice(0, MAX_RPC_MESSAGE_CHARS)}"`;
}
