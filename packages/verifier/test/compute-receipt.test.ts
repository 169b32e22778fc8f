/**
 * Hosted compute receipts (seeds/compute-receipts.txt): ES256 JWS against a
 * JWKS matched by kid, sha256 bindings, cost and token sums, receipt_hash.
 */
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdtempSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { canonicalJson, keccak256Hex } from "@bench-bounty/evidence";
import { CompactSign, exportJWK, generateKeyPair, type JWK } from "jose";
import { beforeAll, describe, expect, it } from "vitest";
import { VerifierInputError, verifyComputeReceipt } from "../src/index.js";

const sha = (s: string): string => "sha256:" + createHash("sha256").update(s, "utf8").digest("hex");
const INPUT = "Summarise the attached contract in three bullet points.";
const OUTPUT = "- It pays USDC\n- It has no owner\n- Awards are final 🧾";

type SigningKey = Awaited<ReturnType<typeof generateKeyPair>>["privateKey"];

let keyA: SigningKey;
let keyB: SigningKey;
let jwks: { keys: JWK[] };

function payload(over: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    model_id: "us.anthropic.claude-haiku-4-5-20251001-v1:0",
    region: "us-east-1",
    bedrock_request_id: "d4c0-req",
    prompt_tokens: 1000,
    completion_tokens: 500,
    total_tokens: 1500,
    base_cost_usdc: "0.010500",
    margin_usdc: "0.001575",
    total_usdc: "0.012075",
    system_prompt_sha256: sha("You are a careful contract summariser."),
    input_sha256: sha(INPUT),
    output_sha256: sha(OUTPUT),
    ...over,
  };
}

async function sign(p: Record<string, unknown>, key: SigningKey, kid: string): Promise<string> {
  return new CompactSign(canonicalJson(p)).setProtectedHeader({ alg: "ES256", kid }).sign(key);
}

async function executeResponse(
  p = payload(),
  opts: { key?: SigningKey; kid?: string; receiptHash?: string } = {},
) {
  return {
    invocation_id: "9f2c4a-inv",
    receipt_jws: await sign(p, opts.key ?? keyA, opts.kid ?? "key-a"),
    compute_receipt: { ...p, receipt_hash: opts.receiptHash ?? keccak256Hex(canonicalJson(p)) },
    output: OUTPUT,
  };
}

const bytes = (v: unknown): Uint8Array => new TextEncoder().encode(JSON.stringify(v));

beforeAll(async () => {
  const a = await generateKeyPair("ES256", { extractable: true });
  const b = await generateKeyPair("ES256", { extractable: true });
  keyA = a.privateKey;
  keyB = b.privateKey;
  jwks = {
    keys: [
      { ...(await exportJWK(b.publicKey)), kid: "key-b", alg: "ES256", use: "sig" },
      { ...(await exportJWK(a.publicKey)), kid: "key-a", alg: "ES256", use: "sig" },
    ],
  };
});

describe("verifyComputeReceipt", () => {
  it("verifies a good receipt: signature by kid, bindings, sums, receipt_hash", async () => {
    const r = await verifyComputeReceipt({
      execute: bytes(await executeResponse()),
      jwks,
      input: new TextEncoder().encode(INPUT),
    });
    const states = Object.fromEntries(Object.entries(r.facts).map(([k, f]) => [k, f.state]));
    expect(states).toEqual({
      signature: "verified",
      view_agreement: "verified",
      input_binding: "verified",
      output_binding: "verified",
      cost_sum: "verified",
      token_sum: "verified",
      receipt_hash: "verified",
      anchor: "not-observed",
    });
    expect(r.ok).toBe(true);
    expect(r.kid).toBe("key-a");
    expect(r.receipt_hash).toBe(keccak256Hex(canonicalJson(payload())));
  });

  // probe14 D2-F14: a missing --input was passed over when the payload had no input_sha256
  it("reads a named --input or --output file even when the payload has no digest for it", async () => {
    const p = payload();
    delete p.input_sha256;
    const r = verifyComputeReceipt({
      execute: bytes(await executeResponse(p)),
      jwks,
      input: "/nonexistent/input.txt",
    });
    await expect(r).rejects.toMatchObject({ message: expect.stringMatching(/no such file \(the input\)/) });
  });

  it("fails the signature when the kid's key did not sign it, or no key has the kid", async () => {
    const wrongKey = await verifyComputeReceipt({
      execute: bytes(await executeResponse(payload(), { key: keyB, kid: "key-a" })),
      jwks,
    });
    expect(wrongKey.facts.signature.state).toBe("failed");
    expect(wrongKey.facts.signature.reasons[0]).toMatch(/does not verify/);
    expect(wrongKey.ok).toBe(false);
    const unknownKid = await verifyComputeReceipt({
      execute: bytes(await executeResponse(payload(), { kid: "rotated-away" })),
      jwks,
    });
    expect(unknownKid.facts.signature.reasons[0]).toMatch(/no JWKS key matches kid rotated-away/);
  });

  it("names the JWKS problem: several keys sharing the kid, or the kid's key not an ES256 key", async () => {
    const execute = bytes(await executeResponse());
    const keyAJwk = jwks.keys[1] as JWK;
    const shared = await verifyComputeReceipt({
      execute,
      jwks: { keys: [jwks.keys[0] as JWK, keyAJwk, { ...(jwks.keys[0] as JWK), kid: "key-a" }] },
    });
    expect(shared.facts.signature.state).toBe("failed");
    expect(shared.facts.signature.reasons[0]).toBe(
      "several JWKS keys share kid key-a ($.keys[1], $.keys[2]): the key set is ambiguous",
    );
    const rsa = await verifyComputeReceipt({
      execute,
      jwks: { keys: [jwks.keys[0] as JWK, { kty: "RSA", n: "sXch", e: "AQAB", kid: "key-a" }] },
    });
    expect(rsa.facts.signature.reasons[0]).toBe(
      "the JWKS key with kid key-a ($.keys[1]) is not an ES256 (P-256 EC) key: kty RSA",
    );
    const p384 = await verifyComputeReceipt({
      execute,
      jwks: { keys: [{ ...keyAJwk, crv: "P-384", alg: undefined }] },
    });
    expect(p384.facts.signature.reasons[0]).toBe(
      "the JWKS key with kid key-a ($.keys[0]) is not an ES256 (P-256 EC) key: crv P-384",
    );
    expect(p384.ok).toBe(false);
  });

  it("refuses a malformed JWKS key (bad x, missing y) as bad input naming its kid and index", async () => {
    const execute = bytes(await executeResponse());
    const keyAJwk = jwks.keys[1] as JWK;
    const badX = verifyComputeReceipt({
      execute,
      jwks: { keys: [jwks.keys[0] as JWK, { ...keyAJwk, x: "not-a-coordinate" }] },
    });
    await expect(badX).rejects.toThrow(VerifierInputError);
    await expect(badX).rejects.toThrow(
      "--jwks: the JWKS key with kid key-a ($.keys[1]) is malformed: its x is not 32 bytes of base64url (a P-256 coordinate)",
    );
    const { y: _y, ...noY } = keyAJwk;
    await expect(verifyComputeReceipt({ execute, jwks: { keys: [noY] } })).rejects.toThrow(
      "--jwks: the JWKS key with kid key-a ($.keys[0]) is malformed: it has no y coordinate",
    );
    const offCurve = { ...keyAJwk, y: Buffer.alloc(32, 7).toString("base64url") };
    await expect(verifyComputeReceipt({ execute, jwks: { keys: [offCurve] } })).rejects.toThrow(
      /^--jwks: the JWKS key with kid key-a \(\$\.keys\[0\]\) is malformed: \(x, y\) is not a point of P-256/,
    );
  });

  it("fails the signature when the signed payload was edited", async () => {
    const resp = await executeResponse();
    const [h, , s] = resp.receipt_jws.split(".");
    const edited = Buffer.from(canonicalJson(payload({ total_usdc: "0.000001" }))).toString("base64url");
    const r = await verifyComputeReceipt({
      execute: bytes({ ...resp, receipt_jws: `${h}.${edited}.${s}` }),
      jwks,
    });
    expect(r.facts.signature.state).toBe("failed");
    expect(r.facts.view_agreement.state).toBe("failed");
  });

  it("fails the output binding when the delivery differs from the metered output", async () => {
    const dir = mkdtempSync(join(tmpdir(), "receipt-"));
    writeFileSync(join(dir, "out.txt"), OUTPUT + " (swapped)");
    const r = await verifyComputeReceipt({
      execute: bytes(await executeResponse()),
      jwks,
      output: join(dir, "out.txt"),
    });
    expect(r.facts.output_binding.state).toBe("failed");
    expect(r.facts.output_binding.reasons[0]).toMatch(
      /hashes to sha256:[0-9a-f]{64}, the payload's output_sha256 is/,
    );
    expect(r.ok).toBe(false);
  });

  it("fails the cost and token sums of a signed but inconsistent receipt", async () => {
    const p = payload({ margin_usdc: "0.001576", total_tokens: 1499 });
    const r = await verifyComputeReceipt({ execute: bytes(await executeResponse(p)), jwks });
    expect(r.facts.signature.state).toBe("verified");
    expect(r.facts.cost_sum.state).toBe("failed");
    expect(r.facts.cost_sum.reasons[0]).toBe(
      "base_cost_usdc 0.010500 + margin_usdc 0.001576 != total_usdc 0.012075",
    );
    expect(r.facts.token_sum.reasons[0]).toBe(
      "prompt_tokens 1000 + completion_tokens 500 != total_tokens 1499",
    );
    expect(r.ok).toBe(false);
  });

  it("fails the sums of a signed receipt with a negative token count or cost, and quotes long amounts cut (probe25 B-F4, B-F5)", async () => {
    const tokens = await verifyComputeReceipt({
      execute: bytes(await executeResponse(payload({ prompt_tokens: -1, completion_tokens: 1501 }))),
      jwks,
    });
    expect(tokens.facts.signature.state).toBe("verified");
    expect(tokens.facts.token_sum).toMatchObject({
      state: "failed",
      reasons: ["prompt_tokens, completion_tokens and total_tokens must be integers >= 0"],
    });
    expect(tokens.ok).toBe(false);
    const cost = await verifyComputeReceipt({
      execute: bytes(
        await executeResponse(payload({ base_cost_usdc: "-5.00", margin_usdc: "5.01", total_usdc: "0.01" })),
      ),
      jwks,
    });
    expect(cost.facts.cost_sum).toMatchObject({
      state: "failed",
      reasons: ["base_cost_usdc -5.00 is negative: a cost is a USDC amount >= 0"],
    });
    expect(cost.ok).toBe(false);
    const long = "1".repeat(100_001);
    const quoted = await verifyComputeReceipt({
      execute: bytes(await executeResponse(payload({ base_cost_usdc: long, total_usdc: long }))),
      jwks,
    });
    expect(quoted.facts.cost_sum.state).toBe("failed");
    expect(quoted.facts.cost_sum.reasons[0]!.length).toBeLessThan(300);
  });

  it("a cost of 7 decimals is no USDC amount, and -0 is 0, not negative (probe26 B-F5)", async () => {
    const sum = async (base: string, margin: string, total: string) =>
      (
        await verifyComputeReceipt({
          execute: bytes(
            await executeResponse(payload({ base_cost_usdc: base, margin_usdc: margin, total_usdc: total })),
          ),
          jwks,
        })
      ).facts.cost_sum;
    expect(await sum("0.0000001", "0", "0.0000001")).toMatchObject({
      state: "failed",
      reasons: [
        "base_cost_usdc 0.0000001 is not a USDC amount: USDC has 6 decimals (0.000001 is its smallest unit)",
      ],
    });
    expect((await sum("-0.000001", "0.012076", "0.012075")).reasons[0]).toBe(
      "base_cost_usdc -0.000001 is negative: a cost is a USDC amount >= 0",
    );
  });

  // probe34 C-N1: "+0.010500", ".001575" and "0.0105000" (the right values, in forms the platform never
  // writes) verified; a signed cost has one spelling, SPEC 6's USDC amount (evidence USDC6), as "1e-2" has none
  it("a cost not in the canonical USDC form (exactly 6 decimals, no sign, no leading zero) fails cost_sum naming the field (probe34 C-N1)", async () => {
    const sum = async (over: Record<string, string>) =>
      (await verifyComputeReceipt({ execute: bytes(await executeResponse(payload(over))), jwks })).facts
        .cost_sum;
    const form = 'exactly 6 decimals, no sign, no leading zero (e.g. "0.012075")';
    for (const [field, text] of [
      ["base_cost_usdc", "+0.010500"],
      ["margin_usdc", ".001575"],
      ["base_cost_usdc", "0.0105000"],
      ["base_cost_usdc", "0.0105"],
      ["base_cost_usdc", "00.010500"],
      ["total_usdc", "0.012075000"],
      ["margin_usdc", "-0.000000"],
    ] as const) {
      const fact = await sum({ [field]: text });
      expect(fact, `${field} ${text}`).toMatchObject({
        state: "failed",
        reasons: [`${field} ${text} is not in the canonical USDC form: ${form}`],
      });
    }
    // "-0" and a trailing zero are the right values, not the form (probe26 B-F5 read them by value)
    expect(await sum({ base_cost_usdc: "-0", margin_usdc: "0.012075" })).toMatchObject({
      state: "failed",
      reasons: [`base_cost_usdc -0 is not in the canonical USDC form: ${form}`],
    });
    expect((await sum({ base_cost_usdc: "0.0100000", margin_usdc: "0.002075" })).state).toBe("failed");
    // the form the platform writes verifies
    expect(
      (await sum({ base_cost_usdc: "12.000000", margin_usdc: "0.000000", total_usdc: "12.000000" })).state,
    ).toBe("verified");
    expect((await sum({})).state).toBe("verified");
  });

  it("fails receipt_hash when the stated hash is not the keccak of the canonical payload", async () => {
    const r = await verifyComputeReceipt({
      execute: bytes(await executeResponse(payload(), { receiptHash: `0x${"00".repeat(32)}` })),
      jwks,
    });
    expect(r.facts.receipt_hash.state).toBe("failed");
  });

  it("reads the JWKS from a URL", async () => {
    const server = createServer((_req, res) => {
      res.setHeader("content-type", "application/json");
      res.end(JSON.stringify(jwks));
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/.well-known/jwks.json`;
      const r = await verifyComputeReceipt({ execute: bytes(await executeResponse()), jwks: url });
      expect(r.facts.signature.state).toBe("verified");
      expect(r.observed.jwks).toBe(`url ${url}`);
    } finally {
      server.close();
    }
  });

  it("refuses an execute response without receipt_jws as bad input naming the path", async () => {
    await expect(verifyComputeReceipt({ execute: bytes({ invocation_id: "x" }), jwks })).rejects.toThrow(
      VerifierInputError,
    );
    await expect(verifyComputeReceipt({ execute: bytes({ invocation_id: "x" }), jwks })).rejects.toThrow(
      /\$\.receipt_jws: missing key/,
    );
    await expect(verifyComputeReceipt({ execute: bytes({ receipt_jws: "a.b" }), jwks })).rejects.toThrow(
      /\$\.receipt_jws: a compact JWS has 3 parts, found 2/,
    );
  });

  // probe24 B-F5: `output: 1` was read as absent ("no --output: nothing to hash"), `invocation_id: 5` as "(none)"
  it("refuses a wrong-typed output or invocation_id at its path; null or absent is read as absent", async () => {
    const good = await executeResponse();
    for (const [key, value, found] of [
      ["output", 1, "the number 1"],
      ["output", { a: 1 }, "an object"],
      ["output", ["x"], "an array"],
      ["output", true, "boolean"],
      ["invocation_id", 5, "the number 5"],
    ] as const) {
      const r = verifyComputeReceipt({ execute: bytes({ ...good, [key]: value }), jwks });
      await expect(r).rejects.toThrow(VerifierInputError);
      await expect(verifyComputeReceipt({ execute: bytes({ ...good, [key]: value }), jwks })).rejects.toThrow(
        `$.${key}: expected a string or null, found ${found}`,
      );
    }
    const absent = await verifyComputeReceipt({
      execute: bytes({ ...good, invocation_id: null, output: null }),
      jwks,
    });
    expect(absent.invocation_id).toBeNull();
    expect(absent.facts.output_binding.state).toBe("not-observed");
  });

  // probe33 B-F3: a header `"kid": 5` was read as "no kid", and the JWKS's lone ES256 key verified the receipt
  it("refuses a JWS header whose kid or alg is not a string as bad input at $.receipt_jws, never as no kid", async () => {
    const lone = { keys: [jwks.keys[1] as JWK] }; // key-a alone: a header with no kid selects it
    const p = payload();
    const good = await executeResponse(p);
    const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString("base64url");
    for (const [header, found] of [
      [{ alg: "ES256", kid: 5 }, "kid is not a string: found the number 5"],
      [{ alg: "ES256", kid: null }, "kid is not a string: found null"],
      [{ alg: "ES256", kid: ["key-a"] }, "kid is not a string: found an array"],
      [{ alg: "ES256", kid: { k: 1 } }, "kid is not a string: found an object"],
      [{ alg: "ES256", kid: true }, "kid is not a string: found boolean"],
      [{ alg: 5, kid: "key-a" }, "alg is not a string: found the number 5"],
    ] as const) {
      // signed by key-a over this very header: only the header's types are wrong
      const jws = await new CompactSign(canonicalJson(p))
        .setProtectedHeader(header as never)
        .sign(keyA)
        .catch(async () => {
          const [, body] = good.receipt_jws.split(".");
          return `${b64(header)}.${body}.${good.receipt_jws.split(".")[2]}`;
        });
      const r = verifyComputeReceipt({ execute: bytes({ ...good, receipt_jws: jws }), jwks: lone });
      await expect(r).rejects.toThrow(VerifierInputError);
      await expect(
        verifyComputeReceipt({ execute: bytes({ ...good, receipt_jws: jws }), jwks: lone }),
      ).rejects.toThrow(`$.receipt_jws: the JWS header's ${found}`);
    }
    // no kid at all still selects the lone ES256 key
    const noKid = await new CompactSign(canonicalJson(p)).setProtectedHeader({ alg: "ES256" }).sign(keyA);
    const r = await verifyComputeReceipt({ execute: bytes({ ...good, receipt_jws: noKid }), jwks: lone });
    expect(r.facts.signature.state).toBe("verified");
  });

  // probe24 B-F5: `--registry 0x12` was refused only once the RPC answered (exit 3 when it was down)
  it("CLI: a --registry that is not an address is exit 2 before anything is read, the RPC down or not", async () => {
    const dir = mkdtempSync(join(tmpdir(), "receipt-"));
    const execute = join(dir, "EXECUTE.json");
    writeFileSync(execute, JSON.stringify(await executeResponse()));
    writeFileSync(join(dir, "jwks.json"), JSON.stringify(jwks));
    const bin = fileURLToPath(new URL("../src/bin.ts", import.meta.url));
    const run = (args: string[]) =>
      spawnSync(process.execPath, ["--import", "tsx", bin, "verify-receipt", ...args], {
        cwd: fileURLToPath(new URL("..", import.meta.url)),
        encoding: "utf8",
      });
    const expected = "verify-receipt: bad input: --registry: 0x12 is not an address\n";
    // an RPC nobody listens on: reading it would be exit 3
    // an RPC nobody listens on (reading it would be exit 3), and an execute response that does not
    // exist: nothing is read
    for (const response of [execute, join(dir, "none.json")]) {
      const r = run([
        response,
        "--jwks",
        join(dir, "jwks.json"),
        "--rpc",
        "http://127.0.0.1:1",
        "--registry",
        "0x12",
      ]);
      expect([r.status, r.stderr], response).toEqual([2, expected]);
    }
  });

  it("CLI: verify-receipt exits 0 for a good receipt and 1 for a swapped output", async () => {
    const dir = mkdtempSync(join(tmpdir(), "receipt-"));
    writeFileSync(join(dir, "EXECUTE.json"), JSON.stringify(await executeResponse()));
    writeFileSync(join(dir, "jwks.json"), JSON.stringify(jwks));
    writeFileSync(join(dir, "input.txt"), INPUT);
    writeFileSync(join(dir, "output.txt"), "not the output");
    const bin = fileURLToPath(new URL("../src/bin.ts", import.meta.url));
    const run = (...args: string[]) =>
      spawnSync(
        process.execPath,
        [
          "--import",
          "tsx",
          bin,
          "verify-receipt",
          join(dir, "EXECUTE.json"),
          "--jwks",
          join(dir, "jwks.json"),
          ...args,
        ],
        {
          cwd: fileURLToPath(new URL("..", import.meta.url)),
          encoding: "utf8",
        },
      );
    const good = run("--input", join(dir, "input.txt"));
    expect(good.status).toBe(0);
    expect(good.stdout).toMatch(/signature\s+verified\s+ES256 signature verifies with JWKS key key-a/);
    expect(good.stdout).toMatch(/receipt: VERIFIED/);
    const bad = run("--output", join(dir, "output.txt"), "--json");
    expect(bad.status).toBe(1);
    expect(JSON.parse(bad.stdout).facts.output_binding.state).toBe("failed");
  });

  it("CLI: a binary, malformed, twice-stdin or non-http(s) JWKS is bad input (exit 2), no raw bytes", async () => {
    const dir = mkdtempSync(join(tmpdir(), "receipt-"));
    const execute = join(dir, "EXECUTE.json");
    writeFileSync(execute, JSON.stringify(await executeResponse()));
    writeFileSync(
      join(dir, "binary.jwks"),
      Buffer.from([0x1f, 0x8b, 0x08, 0x00, 0xc3, 0x2b, 0xff, 0xdb, 0x9c]),
    );
    writeFileSync(
      join(dir, "bad-key.json"),
      JSON.stringify({ keys: [{ ...(jwks.keys[1] as JWK), x: "AAAA" }] }),
    );
    const bin = fileURLToPath(new URL("../src/bin.ts", import.meta.url));
    const run = (args: string[], input?: string) =>
      spawnSync(process.execPath, ["--import", "tsx", bin, "verify-receipt", ...args], {
        cwd: fileURLToPath(new URL("..", import.meta.url)),
        encoding: "utf8",
        input,
      });
    const binary = run([execute, "--jwks", join(dir, "binary.jwks")]);
    expect(binary.status).toBe(2);
    expect(binary.stderr).toBe(
      "verify-receipt: bad input: --jwks: the JWKS is not JSON: $: it is not UTF-8 text (9 bytes of binary data?)\n",
    );
    const badKey = run([execute, "--jwks", join(dir, "bad-key.json")]);
    expect(badKey.status).toBe(2);
    expect(badKey.stderr).toMatch(
      /^verify-receipt: bad input: --jwks: the JWKS key with kid key-a \(\$\.keys\[0\]\) is malformed: its x is not 32 bytes/,
    );
    const twice = run(["-", "--jwks", "-"], JSON.stringify(await executeResponse()));
    expect(twice.status).toBe(2);
    expect(twice.stderr).toBe(
      "verify-receipt: bad input: --jwks: standard input (-) can be read only once, and <execute> and --jwks both name it\n",
    );
    const ftp = run([execute, "--jwks", "ftp://x/jwks.json"]);
    expect(ftp.status).toBe(2);
    expect(ftp.stderr).toBe(
      "verify-receipt: bad input: --jwks: expected an http(s) URL (scheme ftp; the value is not printed: it may carry a key)\n",
    );
  });
});

// h38's note (probe38 B-N1): `verify-receipt --rpc` read `anchorOf` outside the view-read wrapper the
// pack's walk uses, so a registry whose answer is too short for the ABI value failed as the RPC, in viem's
// words ("Position 96 is out of bounds"), and a revert as an unreadable RPC in viem's words too.
describe("verify-receipt --rpc: the registry's anchorOf answer read as the pack's walk reads it", () => {
  const REGISTRY = "0x2000000000000000000000000000000000000002";
  /** A stub RPC on chain 31337 whose registry runs AnchorRegistry's code and answers eth_call per `/<mode>`. */
  async function stubRpc(): Promise<{ url: (mode: string) => string; close: () => void }> {
    const { anchorRegistryDeployedBytecode } = await import("@bench-bounty/contracts");
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", () => {
        const call = JSON.parse(Buffer.concat(chunks).toString("utf8")) as { id: number; method: string };
        const mode = (req.url ?? "/").slice(1);
        const answer = (body: Record<string, unknown>) => {
          res.writeHead(200, { "content-type": "application/json" });
          res.end(JSON.stringify({ jsonrpc: "2.0", id: call.id, ...body }));
        };
        if (call.method === "eth_chainId") return answer({ result: "0x7a69" });
        if (call.method === "eth_getCode") return answer({ result: anchorRegistryDeployedBytecode });
        if (mode === "revert")
          return answer({ error: { code: 3, message: "execution reverted", data: "0x" } });
        // one word of the four anchorOf answers
        return answer({ result: `0x${"00".repeat(31)}01` });
      });
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    return { url: (mode) => `${base}/${mode}`, close: () => server.close() };
  }

  it("an answer too short for anchorOf fails the anchor fact naming the call and the registry, not the RPC in viem's words", async () => {
    const rpc = await stubRpc();
    try {
      const r = await verifyComputeReceipt({
        execute: bytes(await executeResponse()),
        jwks,
        rpcUrl: rpc.url("short"),
        registry: REGISTRY,
      });
      expect(r.facts.anchor.state).toBe("failed");
      expect(r.facts.anchor.reasons.join(" ")).toMatch(
        new RegExp(
          `^anchorOf\\(0x[0-9a-f]{64}\\) on ${REGISTRY} returned data that does not decode as the function.s ABI$`,
        ),
      );
      expect(r.facts.anchor.reasons.join(" ")).not.toMatch(/Position|out of bounds/);
    } finally {
      rpc.close();
    }
  });
});
