/**
 * Whether an `eth_call` answer of a view of the protocol's contracts is that view's ABI value, word by
 * word: viem decodes an `address` from a word's low 20 bytes and a `uintN` from the whole word, checking
 * neither (probe38 W-N1, probe39 B-F1 / V-F2: a lying RPC's `getBounty` with an awarder word's upper bytes
 * set, or a `status` of 2^256-1, was read as an address and a rounded number). The one rule of the
 * verifier's and the platform's RPC transports (check_pack.py has its own, `decode_bounty`).
 */
import {
  BaseError,
  decodeFunctionResult,
  encodeFunctionResult,
  toFunctionSelector,
  type AbiFunction,
  type AbiParameter,
  type Hex,
} from "viem";
import { anchorRegistryAbi, benchmarkBountyAbi } from "./generated/abis.js";

/** The views whose answers are checked, by selector: their name, output parameters and ABI entry. */
const VIEWS: ReadonlyMap<string, { name: string; outputs: readonly AbiParameter[]; abi: AbiFunction }> =
  new Map(
    ([...benchmarkBountyAbi, ...anchorRegistryAbi] as readonly { type: string }[])
      .filter((x): x is AbiFunction => x.type === "function" && (x as AbiFunction).stateMutability === "view")
      .map((f) => [toFunctionSelector(f), { name: f.name, outputs: f.outputs, abi: f }] as const),
  );

/** Why word `w` is not an ABI value of the static elementary type `type`, or null (other types: null). */
function wordProblem(type: string, w: bigint): string | null {
  const bits = type === "address" ? 160 : type === "bool" ? 1 : /^uint(\d+)$/.exec(type)?.[1];
  if (bits === undefined) return null; // bytes32 and the rest: any word
  const n = Number(bits);
  if (w < 1n << BigInt(n)) return null;
  const hex = `0x${w.toString(16).padStart(64, "0")}`;
  return `${hex} is not ${type === "address" ? "an address" : `a ${type}`} (it does not fit ${n} bit${n === 1 ? "" : "s"})`;
}

/**
 * Why the members of `params`, laid out in the head at `base` (byte offset in `data`), are not their ABI
 * values: each static elementary type checked, a `uintN[]` followed by its offset (relative to `base`) and
 * checked element by element, a tuple with a dynamic member followed by its offset and checked member by
 * member. Data too short for a word is left to the decoder (null).
 */
function membersProblem(
  data: Uint8Array,
  base: number,
  params: readonly AbiParameter[],
  at: string,
): string | null {
  const word = (i: number): bigint | undefined => {
    if (i + 32 > data.length) return undefined;
    let w = 0n;
    for (let k = i; k < i + 32; k++) w = (w << 8n) | BigInt(data[k]!);
    return w;
  };
  for (const [i, p] of params.entries()) {
    const name = `${at}${p.name === undefined || p.name === "" ? `[${i}]` : `.${p.name}`}`;
    const w = word(base + 32 * i);
    if (w === undefined) return null;
    if (p.type === "tuple") {
      // a tuple with a dynamic member (getBounty's `Bounty`) sits past the head, at the offset its word holds;
      // a static one (none among the protocol's views) is left to the decoder
      const components = (p as { components: readonly AbiParameter[] }).components;
      if (!components.some((c) => c.type.endsWith("[]"))) return null;
      const head = BigInt(32 * params.length);
      if (w !== head)
        return `the offset of ${name} is 0x${w.toString(16)}, not 0x${head.toString(16)} (just past the head)`;
      const problem = membersProblem(data, base + Number(head), components, name);
      if (problem !== null) return problem;
      continue;
    }
    const list = /^(uint\d+)\[\]$/.exec(p.type);
    if (list !== null) {
      const head = BigInt(32 * params.length);
      if (w !== head)
        return `the offset of ${name} is 0x${w.toString(16)}, not 0x${head.toString(16)} (just past the head)`;
      const start = base + Number(head);
      const n = word(start);
      if (n === undefined) return null;
      if (BigInt(start + 32) + 32n * n > BigInt(data.length))
        return `${name} has ${n} elements, running past the answer's ${data.length} bytes`;
      for (let j = 0; j < Number(n); j++) {
        const problem = wordProblem(list[1]!, word(start + 32 * (1 + j))!);
        if (problem !== null) return `${name}[${j}]: ${problem}`;
      }
      continue;
    }
    const problem = wordProblem(p.type, w);
    if (problem !== null) return `${name}: ${problem}`;
  }
  return null;
}

/**
 * Why `result` (hex data, the answer of an `eth_call` whose input was `callData`) is not the ABI value of the
 * protocol view `callData` calls (`getBounty`, `anchorOf`, `leafCountOf`, ...): an address word with its
 * upper 12 bytes set, an integer past its type's width, a `bool` other than 0 or 1, a tuple or array offset
 * other than the encoder's, an array running past the answer. Null when it is, when `callData` calls no view
 * of BenchmarkBounty or AnchorRegistry, or when `result` is too short for the value (the decoder says so).
 * @param callData the call's input (`0x` + selector + arguments), any case
 * @param result the answer's hex data (already checked to be hex data)
 * @returns e.g. `getBounty: $.awarder: 0xffff...c8 is not an address (it does not fit 160 bits)`
 */
export function protocolViewAnswerProblem(callData: unknown, result: string): string | null {
  if (typeof callData !== "string" || callData.length < 10) return null;
  const view = VIEWS.get(callData.slice(0, 10).toLowerCase());
  if (view === undefined || result.length <= 2) return null;
  const data = Uint8Array.from(Buffer.from(result.slice(2), "hex"));
  const problem = membersProblem(data, 0, view.outputs, "$");
  return problem === null ? null : `${view.name}: ${problem}`;
}

/**
 * Why `result` (the answer of an `eth_call` whose input was `callData`) is not exactly the ABI encoding of a
 * value of the protocol view `callData` calls: {@link protocolViewAnswerProblem}, and the cases it leaves to
 * the decoder: an answer that is no hex data (odd length, non-hex), an empty `0x`, an answer too short for
 * the value (a word cut off, an array running past it), one with extra bytes past the value or any other
 * layout the encoder never writes (its re-encoding differs). The check of a transport that must hand its
 * decoder only the views' values (deploy's `CheckedViewsProvider`, probe40 V-F4: ethers turned a short
 * answer into a `BAD_DATA` stack trace).
 * @param callData the call's input (`0x` + selector + arguments), any case
 * @param result the answer as the RPC gave it (any JSON value)
 * @returns null when `callData` calls no view of BenchmarkBounty or AnchorRegistry, or the answer is the
 *   encoding of its value; else e.g. `anchorOf: the answer is 96 bytes, too short for the value (...)`
 */
export function protocolViewAnswerExactProblem(callData: unknown, result: unknown): string | null {
  if (typeof callData !== "string" || callData.length < 10) return null;
  const view = VIEWS.get(callData.slice(0, 10).toLowerCase());
  if (view === undefined) return null;
  if (typeof result !== "string" || !/^0x(?:[0-9a-fA-F]{2})*$/.test(result))
    return `${view.name}: the answer ${JSON.stringify(typeof result === "string" && result.length > 80 ? `${result.slice(0, 77)}...` : result)} is not hex data (0x and an even number of hex digits)`;
  if (result.length === 2)
    return `${view.name}: the answer is empty (0x): no value (is there a contract at the address?)`;
  const problem = protocolViewAnswerProblem(callData, result);
  if (problem !== null) return problem;
  const bytes = (result.length - 2) / 2;
  let encoded: string;
  try {
    const value: unknown = decodeFunctionResult({ abi: [view.abi], data: result as Hex });
    encoded = encodeFunctionResult({
      abi: [view.abi],
      functionName: view.name,
      result: value as never,
    });
  } catch (e) {
    if (!(e instanceof BaseError)) throw e;
    return `${view.name}: the answer's ${bytes} bytes do not decode as the view's value (${e.shortMessage.replace(/\.$/, "")})`;
  }
  if (encoded.toLowerCase() === result.toLowerCase()) return null;
  const expected = (encoded.length - 2) / 2;
  return expected === bytes
    ? `${view.name}: the answer's ${bytes} bytes are not the encoding of their value (an offset or padding the encoder never writes)`
    : `${view.name}: the answer is ${bytes} bytes, not the ${expected} bytes of its value's encoding`;
}
