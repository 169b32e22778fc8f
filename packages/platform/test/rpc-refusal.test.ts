/**
 * probe31 A-F2: an RPC's own JSON-RPC error answer (a provider's -32000 "rate limit for key ...") was served
 * in viem's generic words for the code, "Missing or invalid parameters. Double check you have provided the
 * correct parameters. (the chain RPC)", telling a user who sent a valid withdrawal address or bounty id to
 * check it. The gateway's `chain_error` now says the RPC refused the call, with its code and its own message
 * (the provider's text may echo the URL's path, which carries the key: masked).
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { benchmarkBountyAbi } from "@bench-bounty/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ChainGateway } from "../src/chain.js";
import { PlatformError } from "../src/errors.js";
import { redactUrlParts } from "../src/redact.js";

let server: Server;
let base: string;

beforeAll(async () => {
  // every call answered as a provider over its rate limit answers it, echoing the path (the key)
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as { id: number } | { id: number }[];
      // /malformed/<name>/...: an error of the wrong shape (probe36 B-F1)
      const [, kind, name] = (req.url ?? "/").split("/");
      const one = (m: { id: number }) => ({
        jsonrpc: "2.0",
        id: m.id,
        error:
          kind === "malformed"
            ? MALFORMED[name!]!.error
            : { code: -32000, message: `rate limit for key ${req.url}` },
      });
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify(Array.isArray(body) ? body.map(one) : one(body)));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => {
  server.closeAllConnections();
  server.close();
});

const BOUNTY = "0x1000000000000000000000000000000000000001";

/** probe36 B-F1: JSON-RPC `error` values of the wrong shape, and how the chain_error shows each. */
const MALFORMED: Record<string, { error: unknown; said: string; code?: number }> = {
  msgnum: { error: { code: -32000, message: 5 }, said: '{"code":-32000,"message":5}', code: -32000 },
  msgnull: { error: { code: -32000, message: null }, said: '{"code":-32000,"message":null}', code: -32000 },
  nomsg: { error: { code: -32000 }, said: '{"code":-32000}', code: -32000 },
  msgobj: {
    error: { code: -32000, message: { a: 1 } },
    said: '{"code":-32000,"message":{"a":1}}',
    code: -32000,
  },
  msgarr: { error: { code: -32000, message: ["x"] }, said: '{"code":-32000,"message":["x"]}', code: -32000 },
  codestr: { error: { code: "abc", message: "m" }, said: '{"code":"abc","message":"m"}' },
  errstr: { error: "boom", said: '"boom"' },
  errnum: { error: 5, said: "5" },
  errarr: { error: [1], said: "[1]" },
  errtrue: { error: true, said: "true" },
  // the URL's key, echoed in a malformed error, is masked too
  echo: {
    error: { code: -32000, message: { key: "SECRETKEY123" } },
    said: '{"code":-32000,"message":{"key":"***"}}',
    code: -32000,
  },
};

function gatewayLogging(logged: string[], path = "/v2/SECRETKEY123"): ChainGateway {
  return ChainGateway.connect({
    rpcUrl: `${base}${path}`,
    chainId: 31337,
    contracts: { benchmarkBounty: BOUNTY, anchorRegistry: "0x2000000000000000000000000000000000000002" },
    privateKey: `0x${"11".repeat(32)}`,
    log: (line) => logged.push(line),
  });
}

describe("an RPC's own JSON-RPC error answer (probe31 A-F2)", () => {
  const reads: [string, (g: ChainGateway) => Promise<unknown>][] = [
    ["read an address's code", (g) => g.publicClient.getCode({ address: BOUNTY })],
    [
      "read getBounty",
      (g) =>
        g.publicClient.readContract({
          address: BOUNTY,
          abi: benchmarkBountyAbi,
          functionName: "getBounty",
          args: [2n],
        }),
    ],
  ];
  for (const [what, call] of reads)
    it(`${what}: chain_error saying the RPC refused it, its code and words, never viem's parameter advice`, async () => {
      const logged: string[] = [];
      const g = gatewayLogging(logged);
      const e = await g.read(what, () => call(g)).catch((x: unknown) => x);
      expect(e).toBeInstanceOf(PlatformError);
      expect(e).toMatchObject({ code: "chain_error", details: { call: what, rpc_error_code: -32000 } });
      const message = (e as Error).message;
      expect(message).toMatch(
        new RegExp(
          `^${what} failed: the RPC refused the call with JSON-RPC error -32000 "rate limit for key \\*\\*\\*"`,
        ),
      );
      expect(message).not.toMatch(/parameters|Double check/i);
      expect(message).not.toMatch(/SECRETKEY123|127\.0\.0\.1/);
      expect(logged).toHaveLength(1);
      expect(logged[0]).toMatch(/JSON-RPC error -32000 "rate limit for key \*\*\*"/);
      expect(logged[0]).not.toMatch(/SECRETKEY123/);
    });
});

describe("an RPC's JSON-RPC error of the wrong shape (probe36 B-F1)", () => {
  it.each(Object.keys(MALFORMED))(
    "error %s: chain_error naming the call, the error shown as JSON, never a TypeError",
    async (name) => {
      const logged: string[] = [];
      const g = gatewayLogging(logged, `/malformed/${name}/SECRETKEY123`);
      const what = "read an address's code";
      const e = await g
        .read(what, () => g.publicClient.getCode({ address: BOUNTY }))
        .catch((x: unknown) => x);
      expect(e).toBeInstanceOf(PlatformError);
      const { said, code } = MALFORMED[name]!;
      expect(e).toMatchObject({ code: "chain_error", details: { call: what } });
      expect((e as PlatformError).details.rpc_error_code).toBe(code);
      expect((e as Error).message).toBe(
        `${what} failed: the RPC refused the call with a malformed JSON-RPC error: ${said} (the chain RPC)`,
      );
      expect(logged).toHaveLength(1);
      expect(logged[0]).not.toMatch(/SECRETKEY123/);
    },
  );
});

describe("redactUrlParts", () => {
  it("masks the URL, its path, query and long parts, keeps short ones", () => {
    const url = "https://base.example.org/v2/SECRETKEY123?apikey=QWERTY999&x=1";
    expect(redactUrlParts("limit for /v2/SECRETKEY123?apikey=QWERTY999&x=1", url)).toBe("limit for ***");
    expect(redactUrlParts("key SECRETKEY123 and QWERTY999 on v2", url)).toBe("key *** and *** on v2");
    expect(redactUrlParts(`see ${url} now`, url)).toBe("see *** now");
    expect(redactUrlParts("nothing here", undefined)).toBe("nothing here");
  });
});
