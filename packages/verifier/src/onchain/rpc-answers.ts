/**
 * The JSON-RPC answers the verifier reads outside a contract call, each checked against its shape before
 * it is used (probe15 B-F6): `eth_chainId` and `eth_blockNumber` a quantity, `eth_getCode` hex data,
 * `eth_getTransactionReceipt` null or a receipt with the fields the `award_log` fact reads and every
 * quantity viem's formatter converts. An RPC answers whatever it likes; an answer of the wrong shape (`"0x"`
 * or `{}` for a receipt, `null` for code) is an RPC that cannot be read, named by its method and the JSON
 * path of the first problem (exit 3), never a property read of the wrong type deep in a fact (exit 4,
 * "internal error"), nor viem's formatter's own words with no path (probe38 B-N2: a receipt's `gasUsed` of
 * `"-0x5"`, "Cannot convert -0x5 to a BigInt"). Every answer's envelope is checked too, as viem reads it
 * ({@link checkedRpcFetch}, probe36 V-F7): the request's `id`, a `result` or an `error`, an `eth_call`
 * result hex data ({@link ethCallResultProblem}, probe38 B-F1). A revert of a view of the protocol's
 * contract is the RPC's answer, not the contract's ({@link viewRevertProblem}, probe38 B-N1).
 * @packageDocumentation
 */
import { protocolViewAnswerProblem } from "@bench-bounty/contracts";
import { schemaProblems } from "@bench-bounty/evidence";
import {
  BaseError,
  ContractFunctionRevertedError,
  formatTransactionReceipt,
  hexToNumber,
  type Address,
  type Hex,
  type PublicClient,
  type TransactionReceipt,
} from "viem";
import { z } from "zod";

const quantity = z.string().regex(/^0x[0-9a-fA-F]{1,64}$/, "expected a hex quantity");
const data = z.string().regex(/^0x([0-9a-fA-F]{2})*$/, "expected hex data");
const bytes32 = z.string().regex(/^0x[0-9a-fA-F]{64}$/, "expected 32 bytes of hex");
const address = z.string().regex(/^0x[0-9a-fA-F]{40}$/, "expected an address");

/**
 * A quantity viem's formatter converts when it is present (`BigInt`, `hexToNumber`, `Number`): absent or
 * `null` it reads as null, anything else must be a hex quantity (probe38 B-N2: `"-0x5"` failed in viem's
 * words, "Cannot convert -0x5 to a BigInt", with no JSON path; `"zz"` as a log index read as `NaN`).
 */
const quantityIfAny = quantity.nullish();

/**
 * What of a receipt the verifier reads, and every field viem's `formatTransactionReceipt` (and its
 * `formatLog`) converts: the quantities `gasUsed`, `cumulativeGasUsed`, `effectiveGasPrice`,
 * `transactionIndex`, `blobGasPrice`, `blobGasUsed` and a log's `blockNumber`, `logIndex` and
 * `transactionIndex` (probe38 B-N2). Other fields (`to`, `type`, ...) pass through as they are.
 */
const receiptAnswer = z.looseObject({
  status: z.enum(["0x0", "0x1"]),
  blockNumber: quantity,
  transactionHash: bytes32,
  transactionIndex: quantityIfAny,
  gasUsed: quantityIfAny,
  cumulativeGasUsed: quantityIfAny,
  effectiveGasPrice: quantityIfAny,
  blobGasPrice: quantityIfAny,
  blobGasUsed: quantityIfAny,
  logs: z.array(
    z.looseObject({
      address,
      topics: z.array(bytes32),
      data,
      blockNumber: quantityIfAny,
      logIndex: quantityIfAny,
      transactionIndex: quantityIfAny,
    }),
  ),
});

/**
 * An RPC answer that is not of its method's shape; the RPC reader (`rpcReader`) turns it into a
 * `VerifierNetworkError` naming the RPC and the method.
 */
export class RpcAnswerShapeError extends Error {
  /** @param first the first problem found: its JSON path and what is wrong there */
  constructor(what: string, first: { path: string; message: string } | undefined) {
    super(`the answer is not ${what}${first === undefined ? "" : ` (${first.path}: ${first.message})`}`);
    this.name = "RpcAnswerShapeError";
  }

  /** The RpcAnswerShapeError in `e` or its causes (viem wraps what its `fetchFn` throws), if any. */
  static find(e: unknown): RpcAnswerShapeError | undefined {
    for (let c = e, depth = 0; c !== undefined && c !== null && depth < 8; depth++) {
      if (c instanceof RpcAnswerShapeError) return c;
      c = (c as { cause?: unknown }).cause;
    }
    return undefined;
  }
}

/** Longest revert data quoted in a {@link ViewRevertError} (characters: a selector and two words). */
const MAX_QUOTED_REVERT_DATA = 2 + 8 + 2 * 64;

/**
 * An RPC's revert of a view of a protocol contract whose code `eth_getCode` matched: no answer of that
 * contract (its views do not revert), so an RPC that cannot be read ({@link viewRevertProblem}).
 */
export class ViewRevertError extends RpcAnswerShapeError {
  /** @param said the revert as the RPC answered it: its data, or its reason or message */
  constructor(said: string) {
    super("a view's answer", undefined);
    this.message = `the RPC answered a revert of a view the protocol's contract cannot revert (${said})`;
    this.name = "ViewRevertError";
  }
}

/**
 * The one rule for a revert answered to an `eth_call` of a view of a protocol contract whose code is the
 * protocol's (`eth_getCode` matched, `codeProblem`; probe38 B-N1): the protocol's views never revert, so a
 * JSON-RPC error viem reads as a revert (code 3 or -32603 with data or a message: viem's
 * `ContractFunctionRevertedError`) is the RPC's answer, not the contract's: an RPC that cannot be read
 * (exit 3), as `demo/independent/check_pack.py` says of any error answered to an `eth_call`. Before, it was
 * the contract's "reverted (no reason)": "not the protocol's contract", exit 1 (probe D2-F9's rule, which
 * stays for code that is not the protocol's: such an address is never called).
 * @param e what viem threw for the call (`readContract`)
 * @returns a {@link ViewRevertError} naming the revert's data (cut at {@link MAX_QUOTED_REVERT_DATA}
 *   characters) and its reason or the RPC's message, or null when `e` is no revert
 */
export function viewRevertProblem(e: unknown): ViewRevertError | null {
  if (!(e instanceof BaseError)) return null;
  const revert = e.walk((x) => x instanceof ContractFunctionRevertedError);
  if (!(revert instanceof ContractFunctionRevertedError)) return null;
  const raw: unknown = revert.raw;
  const said: string[] = [];
  if (typeof raw === "string" && HEX_STRING.test(raw) && raw !== "0x")
    said.push(
      `data ${raw.length > MAX_QUOTED_REVERT_DATA ? `${raw.slice(0, MAX_QUOTED_REVERT_DATA)}... (${raw.length - 2} hex digits)` : raw}`,
    );
  else if (raw !== undefined && raw !== "0x") said.push(`data ${quoted(raw)}`);
  else said.push("no data");
  if (typeof revert.reason === "string" && revert.reason !== "")
    said.push(`${raw === undefined || raw === "0x" ? "its message" : "its reason"} ${quoted(revert.reason)}`);
  return new ViewRevertError(said.join(", "));
}

/** Longest JSON value of an answer quoted in an {@link RpcAnswerShapeError} (characters). */
const MAX_QUOTED_CHARS = 100;

/** `value` as JSON, cut at {@link MAX_QUOTED_CHARS} characters (the reader makes it printable). */
function quoted(value: unknown): string {
  const json = value === undefined ? "undefined" : (JSON.stringify(value) ?? String(value));
  return json.length > MAX_QUOTED_CHARS ? `${json.slice(0, MAX_QUOTED_CHARS)}...` : json;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** `; its error: <the answer's error as JSON>` when answer `a` carries a truthy `error`, else "". */
function errorSaid(a: unknown): string {
  return isRecord(a) && a.error ? `; its error: ${quoted(a.error)}` : "";
}

/** One JSON-RPC call as the transport sent it: its id, method and, for an `eth_call`, its input data. */
interface SentCall {
  id: unknown;
  method: unknown;
  data?: unknown;
}

/** A call as sent (`c`, an object viem sent with `id`, `method`, `params`). */
function sentCall(c: Record<string, unknown>): SentCall {
  const first = Array.isArray(c.params) ? (c.params[0] as unknown) : undefined;
  return { id: c.id, method: c.method, ...(isRecord(first) ? { data: first.data ?? first.input } : {}) };
}

/** The calls of a batch as sent (viem sends objects with `id` and `method`). */
function sentCalls(batch: readonly unknown[]): SentCall[] {
  return batch.filter(isRecord).map(sentCall);
}

/**
 * What makes `answer` (the answer at JSON path `at`) no JSON-RPC 2.0 answer to `call`, or null: it has
 * neither a `result` nor an error (viem would read its result as `undefined`), or it answers `eth_call`
 * with a result that is not hex data ({@link ethCallResultProblem}: `null`, odd hex, `""`, a number...).
 * viem read the first two as the contract's "no data" (probe36 V-F7: "not the protocol's contract", exit 1),
 * odd hex as data too short (probe38 B-F1).
 */
function callAnswerProblem(call: SentCall, answer: unknown, at: string): RpcAnswerShapeError | null {
  const method = typeof call.method === "string" ? call.method : "the call";
  const what = `a JSON-RPC answer to ${method}`;
  if (!isRecord(answer))
    return new RpcAnswerShapeError(what, { path: at, message: `expected an object, got ${quoted(answer)}` });
  // viem takes any truthy `error` as the RPC's refusal (rpcRefusalOf says it); a falsy one is no error
  if (answer.error) return null;
  if (!("result" in answer))
    return new RpcAnswerShapeError(what, {
      path: at,
      message:
        "error" in answer
          ? `has no "result" and its "error" is ${quoted(answer.error)} (JSON-RPC 2.0 requires one of them)`
          : `has neither "result" nor "error" (JSON-RPC 2.0 requires one of them)`,
    });
  if (call.method === "eth_call") {
    const problem = ethCallAnswerProblem(call, answer.result);
    if (problem !== null) return new RpcAnswerShapeError(what, { path: `${at}.result`, message: problem });
  }
  return null;
}

/**
 * What makes `result` no answer to the `eth_call` `call`: not hex data ({@link ethCallResultProblem}), or,
 * for a view of the protocol's contracts, not that view's ABI value word by word (`protocolViewAnswerProblem`:
 * an address word with its upper bytes set, an integer past its width; probe39 V-F2). Null when it is one.
 */
function ethCallAnswerProblem(call: SentCall, result: unknown): string | null {
  const problem = ethCallResultProblem(result);
  if (problem !== null) return problem;
  const abi = protocolViewAnswerProblem(call.data, result as string);
  return abi === null ? null : `is not the view's ABI value (${abi})`;
}

/**
 * What makes `result` no `eth_call` result, or null: an `eth_call` answers hex data, `0x` then an even
 * count of hex digits, any case (`0x` alone when the call returns none, which is the contract's answer).
 * `null`, a number, an object, `""`, an odd count of digits (`0x123`) or a non-hex digit is no answer of
 * any contract: viem read `null` and `""` as the contract's "no data" (probe36 V-F7) and odd hex as data
 * too short for the function (probe38 B-F1: "not the protocol's contract", exit 1), or failed in its own
 * words with no JSON path ("Invalid byte sequence"). The one eth_call result rule of the verifier and the
 * platform ({@link checkedRpcFetch}, {@link lowerHexRpcFetch}).
 * @returns what is wrong, as `is <the result as JSON>: an eth_call answers hex data (...)`
 */
export function ethCallResultProblem(result: unknown): string | null {
  if (data.safeParse(result).success) return null;
  return `is ${quoted(result)}: an eth_call answers hex data ("0x" then an even count of hex digits; "0x" alone when the call returns none)`;
}

/**
 * What makes the JSON-RPC answer `answer` no answer to the request `sent` as a whole, or null: for a single
 * call, its `id` is not the request's; for a batch (viem matches a batch's answers to its calls by sorting
 * them by id), not an array, an answer whose `id` no call of the batch has or answers a call twice, or a
 * call left unanswered. What is wrong with one call's answer is {@link callAnswerProblem}'s.
 */
function requestAnswerProblem(sent: unknown, answer: unknown): RpcAnswerShapeError | null {
  if (!Array.isArray(sent)) {
    const call = isRecord(sent) ? sent : { id: undefined, method: undefined };
    // an error with id null is the RPC's refusal of a request whose id it could not read (JSON-RPC 2.0 §5)
    if (!isRecord(answer) || answer.id === call.id || (answer.id === null && answer.error)) return null;
    return new RpcAnswerShapeError(`an answer to this ${String(call.method)} request`, {
      path: "$.id",
      message: `is ${quoted(answer.id)}, the request's is ${quoted(call.id)}${errorSaid(answer)}`,
    });
  }
  const calls = sentCalls(sent);
  const methods = [...new Set(calls.map((c) => String(c.method)))].join(", ");
  const what = `an answer to this batch of ${calls.length} call${calls.length === 1 ? "" : "s"} (${methods})`;
  if (!Array.isArray(answer))
    return new RpcAnswerShapeError(what, {
      path: "$",
      message: `expected an array of ${calls.length} answers, got ${quoted(answer)}`,
    });
  const pending = new Set(calls.map((c) => c.id));
  for (const [i, a] of answer.entries()) {
    const id = isRecord(a) ? a.id : undefined;
    if (!pending.delete(id))
      return new RpcAnswerShapeError(what, {
        path: `$[${i}].id`,
        message: `${
          calls.some((c) => c.id === id)
            ? `answers the call of id ${quoted(id)} twice`
            : `is ${quoted(id)}, the id of no call of the batch`
        }${errorSaid(a)}`,
      });
  }
  const missing = calls.find((c) => pending.has(c.id));
  return missing === undefined
    ? null
    : new RpcAnswerShapeError(what, {
        path: "$",
        message: `answers ${answer.length} of the ${calls.length} calls (none the call of id ${quoted(missing.id)}, ${String(missing.method)})`,
      });
}

/**
 * The answer `text` to the request `sentBody`, parsed and checked: an answer that is no answer to the request
 * as a whole ({@link requestAnswerProblem}: ids, a batch's count) or, for a single call, of the wrong envelope
 * ({@link callAnswerProblem}) is thrown; in a batch, a call's answer of the wrong envelope is handed to viem
 * with the problem as the call's `error` (that call alone fails: the other calls of the batch are read).
 * @throws RpcAnswerShapeError as said; SyntaxError when `text` is not JSON (viem says so, as before)
 */
function checkedAnswer(sentBody: string, text: string): unknown {
  if (text.trim() === "")
    throw new RpcAnswerShapeError("a JSON-RPC answer", { path: "$", message: "the body is empty" });
  const answer: unknown = JSON.parse(text);
  let sent: unknown;
  try {
    sent = JSON.parse(sentBody);
  } catch (e) {
    if (!(e instanceof SyntaxError)) throw e;
    return answer; // not a request viem sent
  }
  const whole = requestAnswerProblem(sent, answer);
  if (whole !== null) throw whole;
  if (!Array.isArray(sent)) {
    const call = isRecord(sent) ? sentCall(sent) : { id: undefined, method: undefined };
    const problem = callAnswerProblem(call, answer, "$");
    if (problem !== null) throw problem;
    return answer;
  }
  // every answer of the batch answers one of its calls (checked above)
  const calls = new Map(sentCalls(sent).map((c) => [c.id, c]));
  return (answer as Record<string, unknown>[]).map((a, i) => {
    const problem = callAnswerProblem(calls.get(a.id)!, a, `$[${i}]`);
    return problem === null ? a : { ...a, error: problem };
  });
}

/** Headers of `res` with `content-type: application/json` (so viem reads the body with `json()`). */
function jsonHeaders(res: Response): Headers {
  const headers = new Headers(res.headers);
  headers.set("content-type", "application/json");
  return headers;
}

/** An http answer whose `json()` is `read()` (the checked answer, {@link checkedRpcFetch}). */
class CheckedRpcAnswer extends Response {
  override readonly json: () => Promise<unknown>;

  constructor(res: Response, read: () => Promise<unknown>) {
    super(null, { status: res.status, statusText: res.statusText, headers: jsonHeaders(res) });
    this.json = read;
  }
}

/**
 * A `fetch` for viem's http transport (`fetchFn`) whose JSON-RPC answers are checked against the request
 * they answer when viem reads them ({@link checkedAnswer}): viem matches no id and reads an answer with
 * neither `result` nor `error` as a result of `undefined`, so an `eth_call` answered so (or with `null`) read
 * as the contract's "no data" (probe36 V-F7: "not the protocol's contract", exit 1), and odd hex as data too
 * short (probe38 B-F1). The body is read when
 * viem reads it, after its own timeout has let go (`fetchFn`'s bounds cover the body). An answer that is not
 * http 2xx is returned as it came (viem says its status).
 * @param fetchFn the `fetch` whose answers are checked (the verifier's bounded one)
 * @returns a `fetch` whose answer's `json()` throws an RpcAnswerShapeError naming the method, the JSON path in
 *   the answer and what is wrong there (viem wraps it in its `HttpRequestError`, or, for one call of a batch,
 *   its `RpcRequestError`; `RpcAnswerShapeError.find` finds it, as the RPC reader does)
 */
export function checkedRpcFetch(fetchFn: typeof fetch): typeof fetch {
  return async (input, init) => {
    const res = await fetchFn(input, init);
    const sentBody = init?.body;
    if (!res.ok || typeof sentBody !== "string") return res;
    return new CheckedRpcAnswer(res, async () => checkedAnswer(sentBody, await res.text()));
  };
}

/** A string of hex digits after `0x`, any case (a quantity, data, a hash, an address). */
const HEX_STRING = /^0x[0-9a-fA-F]*$/;

/**
 * `value` (a JSON answer the shape check accepted) with every hex string, at any depth, in lower case
 * (probe37 B-F1): hex case carries no meaning, but viem's `decodeEventLog` matches topic 0 against the
 * lower-case event selector by string, so a log whose topic 0 an RPC wrote in upper case read as no log
 * (an honest award's `award_log` and anchors `failed`). Read once here, every later comparison and decoding
 * sees canonical lower case. Other strings (`0X...` is not hex here) and values are kept as they are.
 */
function lowerHex<T>(value: T): T {
  if (typeof value === "string") return (HEX_STRING.test(value) ? value.toLowerCase() : value) as T;
  if (Array.isArray(value)) return value.map((v: unknown) => lowerHex(v)) as T;
  if (isRecord(value))
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, lowerHex(v)])) as T;
  return value;
}

/**
 * Which answers to the request `sentBody` answer an `eth_call`: for one call, its answer when the call is an
 * `eth_call` (viem takes it whatever its id); for a batch, the answers bearing the id of one of its
 * `eth_call`s. None when `sentBody` is not a request viem sent (not JSON).
 */
function ethCallAnswers(sentBody: unknown): (answer: Record<string, unknown>) => SentCall | undefined {
  if (typeof sentBody !== "string") return () => undefined;
  let sent: unknown;
  try {
    sent = JSON.parse(sentBody);
  } catch (e) {
    if (!(e instanceof SyntaxError)) throw e;
    return () => undefined;
  }
  if (!Array.isArray(sent)) {
    const call = isRecord(sent) && sent.method === "eth_call" ? sentCall(sent) : undefined;
    return () => call;
  }
  const calls = new Map(
    sentCalls(sent)
      .filter((c) => c.method === "eth_call")
      .map((c) => [c.id, c]),
  );
  return (a) => calls.get(a.id);
}

/**
 * A JSON-RPC answer (or a batch's answers) with the hex of each `result` in lower case ({@link lowerHex}).
 * @param callOf the `eth_call` of the request an answer answers, if any ({@link ethCallAnswers})
 * @throws RpcAnswerShapeError when an answer to an `eth_call` of the request, not an error, has a result that
 *   is not hex data or not the protocol view's ABI value ({@link ethCallAnswerProblem}), at `$.result` or `$[i].result`
 */
function lowerHexResults(
  answer: unknown,
  callOf: (a: Record<string, unknown>) => SentCall | undefined,
): unknown {
  const one = (a: unknown, at: string): unknown => {
    if (!isRecord(a) || !("result" in a)) return a;
    const call = a.error ? undefined : callOf(a);
    const problem = call === undefined ? null : ethCallAnswerProblem(call, a.result);
    if (problem !== null)
      throw new RpcAnswerShapeError("a JSON-RPC answer to eth_call", {
        path: `${at}.result`,
        message: problem,
      });
    return { ...a, result: lowerHex(a.result) };
  };
  return Array.isArray(answer) ? answer.map((a, i) => one(a, `$[${i}]`)) : one(answer, "$");
}

/** An http answer whose `json()` and `text()` read the answer of `res` through {@link lowerHexResults}. */
class LowerHexRpcAnswer extends Response {
  override readonly json: () => Promise<unknown>;
  override readonly text: () => Promise<string>;

  constructor(res: Response, callOf: (a: Record<string, unknown>) => SentCall | undefined) {
    super(null, { status: res.status, statusText: res.statusText, headers: res.headers });
    this.json = async () => lowerHexResults(await res.json(), callOf);
    this.text = async () => {
      const text = await res.text();
      let answer: unknown;
      try {
        answer = JSON.parse(text);
      } catch (e) {
        // not JSON: handed on as it came, for the transport to say so as before
        if (!(e instanceof SyntaxError)) throw e;
        return text;
      }
      return JSON.stringify(lowerHexResults(answer, callOf));
    };
  }
}

/**
 * A `fetch` for viem's http transport (`fetchFn`) whose http 2xx JSON-RPC answers are read with the hex of
 * their results (hashes, addresses, topics, data, quantities) in lower case, when viem reads them (probe37
 * B-F1): hex case carries no meaning, but viem's `getContractEvents` and `parseEventLogs` match a log's
 * topic 0 against the lower-case event selector by string, so behind an RPC writing it in upper case the
 * platform found none of its own `Awarded` and `Anchored` logs. An answer to an `eth_call` whose result is
 * not hex data ({@link ethCallResultProblem}, the verifier's rule) is refused (probe38 B-F1: viem read odd
 * hex padded with a leading 0, another value than any contract returned). An error answer is handed on as
 * it came.
 * @param fetchFn the `fetch` whose answers are read so (the platform's bounded one)
 * @returns a `fetch` whose answer's `json()` / `text()` throws an RpcAnswerShapeError naming eth_call and
 *   the JSON path of the result (viem wraps it in its `HttpRequestError`; `RpcAnswerShapeError.find` finds it)
 */
export function lowerHexRpcFetch(fetchFn: typeof fetch): typeof fetch {
  return async (input, init) => {
    const res = await fetchFn(input, init);
    return res.ok ? new LowerHexRpcAnswer(res, ethCallAnswers(init?.body)) : res;
  };
}

/** The answer checked against `schema`. @throws RpcAnswerShapeError naming `what` was expected */
function shaped<T extends z.ZodType>(schema: T, answer: unknown, what: string): z.infer<T> {
  if (!schema.safeParse(answer).success)
    throw new RpcAnswerShapeError(what, schemaProblems(schema, answer)[0]);
  return answer as z.infer<T>;
}

/**
 * `eth_chainId`, as a number.
 * @throws RpcAnswerShapeError when the answer is not a hex quantity of a safe integer
 */
export async function readChainId(client: PublicClient): Promise<number> {
  const answer: unknown = await client.request({ method: "eth_chainId" });
  const id = hexToNumber(shaped(quantity, answer, "a chain id") as Hex);
  if (!Number.isSafeInteger(id))
    throw new RpcAnswerShapeError("a chain id (too large)", schemaProblems(quantity, answer)[0]);
  return id;
}

/**
 * `eth_blockNumber`, the chain's latest block (probe38 B-N2: viem's `getBlockNumber` converted any answer
 * with `BigInt`, so `"-0x5"` failed as "Cannot convert -0x5 to a BigInt", with no JSON path).
 * @throws RpcAnswerShapeError when the answer is not a hex quantity (`$`)
 */
export async function readBlockNumber(client: PublicClient): Promise<bigint> {
  const answer: unknown = await client.request({ method: "eth_blockNumber" });
  return BigInt(shaped(quantity, answer, "a block number"));
}

/**
 * `eth_getCode(address, latest)`: the runtime code in lower-case hex, `0x` when there is none.
 * @throws RpcAnswerShapeError when the answer is not hex data
 */
export async function readCode(client: PublicClient, at: Address): Promise<Hex> {
  const answer: unknown = await client.request({ method: "eth_getCode", params: [at, "latest"] });
  return lowerHex(shaped(data, answer, "contract code (hex data)")) as Hex;
}

/**
 * `eth_getTransactionReceipt(hash)`, formatted by viem, or null when the transaction is not mined. Its hex
 * (hashes, addresses, topics, data) is read in lower case whatever case the RPC wrote ({@link lowerHex}).
 * @throws RpcAnswerShapeError when the answer is neither null nor a receipt (status, block number,
 *   transaction hash, logs with address, topics and data, and every quantity viem's formatter converts a hex
 *   quantity when present: {@link receiptAnswer}), naming the JSON path (`$.gasUsed: expected a hex
 *   quantity`), or a receipt that contradicts itself or the question ({@link receiptContradiction})
 */
export async function readReceipt(client: PublicClient, hash: Hex): Promise<TransactionReceipt | null> {
  const answer: unknown = await client.request({ method: "eth_getTransactionReceipt", params: [hash] });
  if (answer === null) return null;
  const receipt = lowerHex(shaped(receiptAnswer, answer, "a transaction receipt"));
  const contradiction = receiptContradiction(receipt, hash);
  if (contradiction) throw new RpcAnswerShapeError(`a receipt of transaction ${hash}`, contradiction);
  return formatTransactionReceipt(receipt as never);
}

/**
 * What makes a receipt no evidence of transaction `hash` (probe29 B-F4: a proxy's receipt of another
 * transaction, logs of another block, and logs a reorg removed were all read as the award's): its
 * `transactionHash` another; a log stating another transaction, block number or block hash than the
 * receipt; a log flagged `removed`. Null when none.
 */
function receiptContradiction(
  r: z.infer<typeof receiptAnswer>,
  hash: Hex,
): { path: string; message: string } | null {
  const same = (a: unknown, b: unknown): boolean => String(a).toLowerCase() === String(b).toLowerCase();
  if (!same(r.transactionHash, hash))
    return {
      path: "$.transactionHash",
      message: `is ${r.transactionHash}, the transaction asked is ${hash}`,
    };
  for (const [i, log] of r.logs.entries()) {
    const at = `$.logs[${i}]`;
    if (log.removed === true) return { path: `${at}.removed`, message: "the log was removed by a reorg" };
    for (const field of ["transactionHash", "blockNumber", "blockHash"] as const) {
      const own = log[field];
      const receipts = field === "transactionHash" ? hash : r[field];
      if (own !== undefined && own !== null && receipts !== undefined && !same(own, receipts))
        return { path: `${at}.${field}`, message: `is ${String(own)}, the receipt's is ${String(receipts)}` };
    }
  }
  return null;
}
