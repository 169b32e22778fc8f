/**
 * `input_binding` / `output_binding`: `"sha256:" + hex(sha256(bytes))` of the
 * `--input` / `--output` file (or the response's `output` text) equals the payload's
 * `input_sha256` / `output_sha256`.
 * @packageDocumentation
 */
import { createHash } from "node:crypto";
import { fact, type Fact } from "../facts.js";
import { readSource, type DocumentSource } from "../source.js";
import type { ComputeReceiptFacts, ReceiptWalk } from "./context.js";

function sha256Envelope(bytes: Uint8Array): string {
  return "sha256:" + createHash("sha256").update(bytes).digest("hex");
}

/** The `input_binding` and `output_binding` facts; records `inputLabel` and `outputLabel`. */
export async function bindingFacts(
  walk: ReceiptWalk,
): Promise<Pick<ComputeReceiptFacts, "input_binding" | "output_binding">> {
  const [inputFact, inputLabel] = await binding(walk, "input_sha256", walk.options.input, null, "--input");
  const output = walk.doc.output;
  const [outputFact, outputLabel] = await binding(
    walk,
    "output_sha256",
    walk.options.output,
    typeof output === "string" ? output : null,
    "--output",
  );
  walk.inputLabel = inputLabel;
  walk.outputLabel = outputLabel;
  return { input_binding: inputFact, output_binding: outputFact };
}

async function binding(
  walk: ReceiptWalk,
  key: "input_sha256" | "output_sha256",
  src: DocumentSource | undefined,
  fallback: string | null,
  flag: string,
): Promise<[Fact, string | null]> {
  const claimed = walk.payload[key];
  if (src === undefined && fallback === null)
    return [fact("not-observed", `no ${flag}: nothing to hash`), null];
  // a file the user named is read whatever the payload holds: a missing one is bad input, never
  // passed over (probe14 D2-F14: `--input /nonexist` was ignored when the payload had no input_sha256)
  let bytes: Uint8Array;
  let label: string;
  if (src !== undefined) {
    const r = await readSource(src, {
      what: flag.slice(2),
      timeoutMs: walk.options.timeoutMs,
      signal: walk.options.signal,
    });
    bytes = r.bytes;
    label = r.label;
  } else {
    bytes = new TextEncoder().encode(fallback as string);
    label = "$.output";
  }
  if (typeof claimed !== "string") return [fact("failed", `the signed payload has no ${key} string`), null];
  const got = sha256Envelope(bytes);
  return [
    got === claimed
      ? fact("verified", `${label} hashes to ${got}`)
      : fact("failed", `${label} hashes to ${got}, the payload's ${key} is ${claimed}`),
    label,
  ];
}
