/**
 * The tasks' RPC transport refuses a view answer that is not the view's ABI value (probe40 C-F1): every
 * `eth_call` of a task (ethers' contracts and viem's clients both go through the network's provider) is
 * checked by `protocolViewAnswerExactProblem` of @bench-bounty/contracts: `protocolViewAnswerProblem`, the
 * one rule of the verifier's and the platform's transports (probe39 V-F2), and every answer that is not
 * exactly the encoding of a value (short, extra bytes, empty `0x`, no hex data: probe40 V-F4). Before, an address word with its upper 12 bytes set ended a
 * task in ethers' "deferred error during ABI decoding" and a stack trace, or was read by viem as the
 * address of its low 20 bytes. Registered with Hardhat's `extendProvider` (deploy/tasks/index.ts) for
 * every network but the in-process `hardhat` one (no RPC endpoint between the task and the chain).
 */
import { ProviderWrapper } from "hardhat/plugins";
import type { RequestArguments } from "hardhat/types";
import type { Hex } from "viem";
import { ViewAnswerError } from "./errors";
import { contracts } from "./packages";

type Viem = typeof import("viem");

function viem(): Viem {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- lazy, as deploy/lib/wallets.ts: loaded on the first eth_call only
  return require("viem") as Viem;
}

/** One view call of an `eth_call` and its answer: the call's input and what it answered (hex data, or not). */
interface ViewCall {
  callData: string;
  result: unknown;
  /** Where it sat: `""` for the call itself, ` (call i of a batched call)` for one of a multicall's. */
  where: string;
}

/**
 * The view calls an `eth_call` made, with their answers: the call itself, or, for viem's deployless
 * Multicall3 `aggregate3` (the batched reads of `bounty:credits` / `bounty:claim`, deploy/tasks/claim.ts),
 * each call it carried whose `success` is true, with its `returnData`. An answer that is no hex data,
 * or an aggregate3 answer that does not decode, yields none: the caller's decoder refuses it in its
 * own words.
 */
function viewCallsOf(tx: unknown, result: unknown): ViewCall[] {
  const { data, input, to } = (tx ?? {}) as { data?: unknown; input?: unknown; to?: unknown };
  const callData = typeof data === "string" ? data : typeof input === "string" ? input : undefined;
  if (callData === undefined) return [];
  if (to !== undefined && to !== null) return [{ callData, result, where: "" }];
  if (typeof result !== "string" || !/^0x(?:[0-9a-fA-F]{2})*$/.test(result)) return [];
  const v = viem();
  const prefix = v.deploylessCallViaBytecodeBytecode.toLowerCase();
  if (!callData.toLowerCase().startsWith(prefix)) return [];
  let calls: readonly { callData: Hex }[];
  let answers: readonly { success: boolean; returnData: Hex }[];
  try {
    const [, inner] = v.decodeAbiParameters(
      v.parseAbiParameters("bytes, bytes"),
      `0x${callData.slice(prefix.length)}`,
    );
    const decoded = v.decodeFunctionData({ abi: v.multicall3Abi, data: inner });
    if (decoded.functionName !== "aggregate3") return [];
    calls = decoded.args[0];
    answers = v.decodeFunctionResult({
      abi: v.multicall3Abi,
      functionName: "aggregate3",
      data: result as Hex,
    });
  } catch (e) {
    // not viem's aggregate3 (or an answer that is none): viem's own decoding of it reports the answer
    if (e instanceof v.BaseError) return [];
    throw e;
  }
  return calls.flatMap((call, i) =>
    answers[i]?.success === true
      ? [
          {
            callData: call.callData,
            result: answers[i]!.returnData,
            where: ` (call ${i + 1} of a batched call)`,
          },
        ]
      : [],
  );
}

/** `getBounty(7)`: the view and its arguments as called (the selector's hex when they do not decode). */
function viewCallText(callData: string): string {
  const v = viem();
  const { benchmarkBountyAbi, anchorRegistryAbi } = contracts();
  try {
    const { functionName, args } = v.decodeFunctionData({
      abi: [...benchmarkBountyAbi, ...anchorRegistryAbi],
      data: callData as Hex,
    });
    return `${functionName}(${(args ?? []).map(String).join(", ")})`;
  } catch (e) {
    if (e instanceof v.BaseError) return `the call ${callData.slice(0, 10)}`;
    throw e;
  }
}

/**
 * Why an `eth_call`'s answer is not the ABI value of the protocol view(s) it called, as a
 * {@link ViewAnswerError}, or null when it is (or when it called no view of BenchmarkBounty or
 * AnchorRegistry): `protocolViewAnswerExactProblem` of each call ({@link viewCallsOf}), which refuses
 * what `protocolViewAnswerProblem` leaves to the decoder too (probe40 V-F4: a short, long, empty or
 * non-hex answer, which ethers turned into a `BAD_DATA` stack trace).
 * @param tx the `eth_call`'s first parameter (`{to, data}`; no `to` for a deployless multicall)
 * @param result the `eth_call`'s answer
 * @returns e.g. `getBounty(1): the answer is not the view's ABI value ($.bounty.author: 0xffff…bc is not
 *   an address (it does not fit 160 bits))`
 */
export function viewAnswerError(tx: unknown, result: unknown): ViewAnswerError | null {
  const { protocolViewAnswerExactProblem } = contracts();
  for (const call of viewCallsOf(tx, result)) {
    const problem = protocolViewAnswerExactProblem(call.callData, call.result);
    if (problem === null) continue;
    // the rule's `getBounty: $.bounty.author: ...`, its view named once, with the call's arguments
    const member = problem.slice(problem.indexOf(": ") + 2);
    return new ViewAnswerError(
      `${viewCallText(call.callData)}${call.where}: the answer is not the view's ABI value (${member})`,
    );
  }
  return null;
}

/**
 * A network's provider whose `eth_call` answers are checked ({@link viewAnswerError}): an answer that
 * is not its view's ABI value is thrown as a {@link ViewAnswerError}, never handed to ethers or viem.
 */
export class CheckedViewsProvider extends ProviderWrapper {
  /** Forwards `args`; an `eth_call`'s answer is checked before it is returned. */
  public async request(args: RequestArguments): Promise<unknown> {
    const result = await this._wrappedProvider.request(args);
    if (args.method === "eth_call") {
      const error = viewAnswerError(this._getParams(args)[0], result);
      if (error !== null) throw error;
    }
    return result;
  }
}
