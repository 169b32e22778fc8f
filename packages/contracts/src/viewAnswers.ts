/**
 * Whether an `eth_call` answer of a view of the protocol's contracts is that view's ABI value, word by
 * word: viem decodes an `address` from a word's low 20 bytes and a `uintN` from the whole word, checking
 * neither (probe38 W-N1, probe39 B-F1 / V-F2: a lying RPC's `getBounty` with an awarder word's upper bytes
 * set, or a `status` of 2^256-1, was read as an address and a rounded number). The one rule of the
 * verifier's and the platform's RPC transports (check_pack.py has its own, `decode_bounty`).
 */
import { toFunctionSelector, type AbiFunction, type AbiParameter } from "viem";
import { anchorRegistryAbi, benchmarkBountyAbi } from "./generated/abis.js";

/** The views whose answers are checked, by selector: their name and output parameters. */
const VIEWS: ReadonlyMap<string, { name: string; outputs: readonly AbiParameter[] }> = new Map(
  ([...benchmarkBountyAbi, ...anchorRegistryAbi] as readonly { type: string }[])
    .filter((x): x is AbiFunction => x.type === "function" && (x as AbiFunction).stateMutability === "view")
    .map((f) => [toFunctionSelector(f), { name: f.name, outputs: f.outputs }] as const),
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
