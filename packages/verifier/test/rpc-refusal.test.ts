/**
 * probe35 B-F4: an RPC's own JSON-RPC error answer (a provider's -32000 "rate limit exceeded", -32005 "daily
 * request limit exceeded") was said in viem's generic words for its code ("Missing or invalid parameters.
 * Double check you have provided the correct parameters.", "Request exceeds defined limit."): a stranger on a
 * public RPC was told their parameters were wrong. The verifier now says the RPC's code and words, as the
 * platform does (one rule, `rpcRefusalOf`), with the URL's path (a provider's key) hidden in them.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { createPublicClient, http } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { VerifierNetworkError, verifyPack } from "../src/index.js";
import { rpcReader } from "../src/onchain/context.js";
import { VECTORS, packBytes, runCliAsync } from "./helpers.js";

const SMALL = join(VECTORS, "small.json");

/** What the stub answers, by the first segment of the request's path: a JSON-RPC error for `refuse`'s methods. */
const ERRORS: Record<string, { refuse: string; error: unknown }> = {
  ratelimit0: { refuse: "eth_chainId", error: { code: -32000, message: "rate limit exceeded" } },
  ratelimit: {
    refuse: "eth_chainId",
    error: { code: -32005, message: "daily request limit exceeded, upgrade your plan" },
  },
  // the chain id is served (Base, the vector's chain); every other call is refused
  calls: { refuse: "*", error: { code: -32000, message: "rate limit exceeded" } },
  echo: {
    refuse: "eth_chainId",
    error: { code: -32000, message: "rate limit for key /echo/sk-12345 exceeded" },
  },
};

/**
 * probe36 B-F1: `error` values of the wrong shape (a message that is not text, no message, an error that is
 * not an object), each as `<name>-chain` (eth_chainId refused) and `<name>-calls` (every call but it refused).
 */
const MALFORMED: Record<string, { error: unknown; said: string }> = {
  msgnum: { error: { code: -32000, message: 5 }, said: '{"code":-32000,"message":5}' },
  msgnull: { error: { code: -32000, message: null }, said: '{"code":-32000,"message":null}' },
  nomsg: { error: { code: -32000 }, said: '{"code":-32000}' },
  msgobj: { error: { code: -32000, message: { a: 1 } }, said: '{"code":-32000,"message":{"a":1}}' },
  msgarr: { error: { code: -32000, message: ["x"] }, said: '{"code":-32000,"message":["x"]}' },
  codestr: { error: { code: "abc", message: "m" }, said: '{"code":"abc","message":"m"}' },
  codebig: { error: { code: 1e300, message: "m" }, said: '{"code":1e+300,"message":"m"}' },
  errstr: { error: "boom", said: '"boom"' },
  errnum: { error: 5, said: "5" },
  errarr: { error: [1], said: "[1]" },
  errtrue: { error: true, said: "true" },
  // control characters in it are escaped, the answer shown at most 300 characters
  errctl: {
    error: { code: -32000, message: 7, data: "\u001b[31m\u009b2J" },
    said: '{"code":-32000,"message":7,"data":"\\u001b[31m\\u009b2J"}',
  },
  errlong: {
    error: { code: -32000, message: 7, data: "a".repeat(100_000) },
    said: `{"code":-32000,"message":7,"data":"${"a".repeat(300 - 35)}`,
  },
};
for (const [name, { error }] of Object.entries(MALFORMED)) {
  ERRORS[`${name}-chain`] = { refuse: "eth_chainId", error };
  ERRORS[`${name}-calls`] = { refuse: "*", error };
}

let server: Server;
let base = "";

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = "";
    req.setEncoding("utf8");
    req.on("data", (d: string) => (body += d));
    req.on("end", () => {
      const mode = ERRORS[(req.url ?? "/").split("/")[1] ?? ""]!;
      const asked = JSON.parse(body) as { id: unknown; method: string } | { id: unknown; method: string }[];
      const one = (c: { id: unknown; method: string }): unknown =>
        mode.refuse === c.method || (mode.refuse === "*" && c.method !== "eth_chainId")
          ? { jsonrpc: "2.0", id: c.id, error: mode.error }
          : { jsonrpc: "2.0", id: c.id, result: "0x2105" };
      res.setHeader("content-type", "application/json");
      res.end(JSON.stringify(Array.isArray(asked) ? asked.map(one) : one(asked)));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => {
  server.closeAllConnections();
  server.close();
});

describe("an RPC's own JSON-RPC refusal is said in its words and code (probe35 B-F4)", () => {
  it.each([
    ["ratelimit0", 'eth_chainId: the RPC refused the call with JSON-RPC error -32000 "rate limit exceeded"'],
    [
      "ratelimit",
      'eth_chainId: the RPC refused the call with JSON-RPC error -32005 "daily request limit exceeded, upgrade your plan"',
    ],
  ])("verify --rpc refusing eth_chainId (%s): exit 3 with the RPC's words", async (mode, said) => {
    const r = await runCliAsync(["verify", SMALL, "--rpc", `${base}/${mode}/x`]);
    expect(r.code, r.stderr).toBe(3);
    expect(r.stderr).toBe(`verify: cannot read rpc ${base}: ${said}\n`);
    expect(r.stderr).not.toMatch(/Missing or invalid parameters|Request exceeds defined limit/);
  });

  it("a refused contract read or receipt names the call and the RPC's words", async () => {
    const e = await verifyPack({
      source: packBytes("small"),
      rpcUrl: `${base}/calls/x`,
      policy: "onchain",
      timeoutMs: 5000,
    }).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(VerifierNetworkError);
    expect((e as Error).message).toMatch(
      /^rpc http:\/\/127\.0\.0\.1:\d+: \S+: the RPC refused the call with JSON-RPC error -32000 "rate limit exceeded"$/,
    );
  });

  it("hides the URL's path (a provider's key) when the RPC's text echoes it", async () => {
    const r = await runCliAsync(["verify", SMALL, "--rpc", `${base}/echo/sk-12345`]);
    expect(r.code, r.stderr).toBe(3);
    expect(r.stderr).toBe(
      `verify: cannot read rpc ${base}: eth_chainId: the RPC refused the call with JSON-RPC error -32000 "rate limit for key (hidden) exceeded"\n`,
    );
  });

  it("the reader verify-receipt --rpc reads the anchor with (compute-receipt/anchor.ts) says the RPC's words too", async () => {
    const url = `${base}/ratelimit0/q`;
    const client = createPublicClient({ transport: http(url, { retryCount: 0 }) });
    const e = await rpcReader(`rpc ${base}`, url)("eth_chainId", () => client.getChainId()).catch(
      (x: unknown) => x,
    );
    expect((e as Error).message).toBe(
      `rpc ${base}: eth_chainId: the RPC refused the call with JSON-RPC error -32000 "rate limit exceeded"`,
    );
  });
});

describe("an RPC's JSON-RPC error of the wrong shape is still its refusal: exit 3 naming the method (probe36 B-F1)", () => {
  it.each(["msgnum-chain", "errstr-chain", "msgnum-calls", "errstr-calls"])(
    "verify --rpc answered %s: exit 3 naming the method, never an internal error (exit 4)",
    async (mode) => {
      const r = await runCliAsync(["verify", SMALL, "--rpc", `${base}/${mode}/x`]);
      expect(r.code, r.stderr).toBe(3);
      const said = MALFORMED[mode.split("-")[0]!]!.said;
      expect(r.stderr).toBe(
        `verify: cannot read rpc ${base}: ${mode.endsWith("-chain") ? "eth_chainId" : "eth_getCode"}: the RPC refused the call with a malformed JSON-RPC error: ${said}\n`,
      );
    },
  );

  it.each(Object.keys(MALFORMED))(
    "every read refused with %s: the RPC's refusal naming the method, its error as JSON",
    async (name) => {
      for (const [mode, method] of [
        [`${name}-chain`, "eth_chainId"],
        [`${name}-calls`, "eth_getCode"],
      ] as const) {
        const e = await verifyPack({
          source: packBytes("small"),
          rpcUrl: `${base}/${mode}/x`,
          policy: "onchain",
          timeoutMs: 5000,
        }).catch((x: unknown) => x);
        expect(e, String(e)).toBeInstanceOf(VerifierNetworkError);
        expect((e as Error).message).toBe(
          `rpc ${base}: ${method}: the RPC refused the call with a malformed JSON-RPC error: ${MALFORMED[name]!.said}`,
        );
      }
    },
  );

  it("a receipt or a code read refused so names its method too", async () => {
    const url = `${base}/msgnum-calls/q`;
    const client = createPublicClient({ transport: http(url, { retryCount: 0 }) });
    const read = rpcReader(`rpc ${base}`, url);
    const calls: [string, () => Promise<unknown>][] = [
      ["eth_getTransactionReceipt", () => client.getTransactionReceipt({ hash: `0x${"ab".repeat(32)}` })],
      ["eth_getCode", () => client.getCode({ address: `0x${"11".repeat(20)}` })],
    ];
    for (const [method, call] of calls) {
      const e = await read(method, call).catch((x: unknown) => x);
      expect((e as Error).message).toBe(
        `rpc ${base}: ${method}: the RPC refused the call with a malformed JSON-RPC error: {"code":-32000,"message":5}`,
      );
    }
  });
});
