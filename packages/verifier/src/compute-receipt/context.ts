/**
 * The compute-receipt walk's shared context: the execute response as read, the
 * JWS header and signed payload, the JWKS, and the payload's hash.
 * @packageDocumentation
 */
import type { JsonObject } from "@bench-bounty/evidence";
import type { JSONWebKeySet } from "jose";
import type { Fact } from "../facts.js";
import type { DocumentSource } from "../source.js";

/** Facts of a compute-receipt verification, in report order. */
export const COMPUTE_RECEIPT_FACTS = [
  "signature",
  "view_agreement",
  "input_binding",
  "output_binding",
  "cost_sum",
  "token_sum",
  "receipt_hash",
  "anchor",
] as const;

/** Name of one compute-receipt fact. */
export type ComputeReceiptFactName = (typeof COMPUTE_RECEIPT_FACTS)[number];

/** The compute-receipt facts, by name. */
export type ComputeReceiptFacts = Record<ComputeReceiptFactName, Fact>;

/** Options of `verifyComputeReceipt`. */
export interface VerifyComputeReceiptOptions {
  /** The saved execute response (path, `-`, URL or bytes). */
  execute: DocumentSource;
  /** The JWKS: a path, an http(s) URL, bytes, or the parsed key set. */
  jwks: DocumentSource | JSONWebKeySet;
  /** The task input you sent (path or bytes); hashed as bytes. */
  input?: DocumentSource;
  /** The output you received (path or bytes); default: the execute response's `output` text. */
  output?: DocumentSource;
  /** JSON-RPC URL for the anchor check. */
  rpcUrl?: string;
  /** AnchorRegistry address (default: the address book entry of the RPC's chain id). */
  registry?: string;
  timeoutMs?: number;
  /** Total deadline of the verification, every read included, milliseconds (default 30 minutes). */
  deadlineMs?: number;
  /** Aborts every read (set by `verifyComputeReceipt` from `deadlineMs`). */
  signal?: AbortSignal;
}

/** The shared context of the compute-receipt walk. */
export interface ReceiptWalk {
  readonly options: VerifyComputeReceiptOptions;
  /** The execute response, parsed. */
  readonly doc: JsonObject;
  /** Where the execute response was read from. */
  readonly executeLabel: string;
  /** The compact JWS (`$.receipt_jws`). */
  readonly jws: string;
  /** `kid` and `alg` of the JWS header, or null. */
  readonly kid: string | null;
  readonly alg: string | null;
  /** The signed payload (trust it only when `signature` is verified). */
  readonly payload: JsonObject;
  /** The unsigned `compute_receipt` convenience view, or null. */
  readonly view: JsonObject | null;
  readonly jwks: JSONWebKeySet;
  readonly jwksLabel: string;
  /** `0x + keccak256(canonical_json(payload))`. */
  readonly receiptHash: string;
  /** `bindings.ts`: where the input and output hashed were read from (null when not hashed). */
  inputLabel: string | null;
  outputLabel: string | null;
}

/** A step of the walk: returns its facts (async: some read files or the chain). */
export type ReceiptStep = (
  walk: ReceiptWalk,
) => Promise<Partial<ComputeReceiptFacts>> | Partial<ComputeReceiptFacts>;
