/**
 * The JSON-RPC answers the verifier reads outside a contract call, each checked against its shape before
 * it is used (probe15 B-F6): `eth_chainId` a quantity, `eth_getCode` hex data, `eth_getTransactionReceipt`
 * null or a receipt with the fields the `award_log` fact reads. An RPC answers whatever it likes; an
 * answer of the wrong shape (`"0x"` or `{}` for a receipt, `null` for code) is an RPC that cannot be read,
 * named by its method and the JSON path of the first problem (exit 3), never a property read of the wrong
 * type deep in a fact (exit 4, "internal error").
 * @packageDocumentation
 */
import { schemaProblems } from "@bench-bounty/evidence";
import {
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

/** What of a receipt the verifier reads (other fields pass through to viem's formatter unchecked). */
const receiptAnswer = z.looseObject({
  status: z.enum(["0x0", "0x1"]),
  blockNumber: quantity,
  transactionHash: bytes32,
  logs: z.array(z.looseObject({ address, topics: z.array(bytes32), data })),
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
 * `eth_getCode(address, latest)`: the runtime code, `0x` when there is none.
 * @throws RpcAnswerShapeError when the answer is not hex data
 */
export async function readCode(client: PublicClient, at: Address): Promise<Hex> {
  const answer: unknown = await client.request({ method: "eth_getCode", params: [at, "latest"] });
  return shaped(data, answer, "contract code (hex data)") as Hex;
}

/**
 * `eth_getTransactionReceipt(hash)`, formatted by viem, or null when the transaction is not mined.
 * @throws RpcAnswerShapeError when the answer is neither null nor a receipt (status, block number,
 *   transaction hash, logs with address, topics and data), or a receipt that contradicts itself or the
 *   question ({@link receiptContradiction})
 */
export async function readReceipt(client: PublicClient, hash: Hex): Promise<TransactionReceipt | null> {
  const answer: unknown = await client.request({ method: "eth_getTransactionReceipt", params: [hash] });
  if (answer === null) return null;
  const receipt = shaped(receiptAnswer, answer, "a transaction receipt");
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
