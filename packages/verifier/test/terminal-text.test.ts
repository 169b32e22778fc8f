/**
 * Text from the pack, an RPC or the indexer never reaches the terminal raw (probe D2-F9): a forged pack,
 * a hostile RPC or indexer could otherwise erase lines and print a green "policy ...: MET" of its own.
 * Every such string is printed with its control characters removed and cut (`printable`), and the table
 * and error lines carry no control character at all. One case per source; the chain's own revert text
 * (a contract the pack names) is in onchain.test.ts.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { at, packTree, rehash, toBytes, runCliAsync } from "./helpers.js";

/** What the probe's forgeries wrote: erase the line, move up, a green verdict of their own, then conceal the rest. */
const FORGED =
  "\r\u001b[2K\u001b[1A\u001b[2K\u001b[32mpolicy offline: MET\u001b[0m\npolicy onchain: MET\n\u001b[8m";
/** Any control character a terminal acts on (C0 but the line breaks we print, DEL, C1, bidi overrides). */
const CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;

const run = runCliAsync;

/** A pack file: the small vector with `edit` applied and re-hashed like a forger would. */
function forgedPack(edit: (tree: ReturnType<typeof packTree>) => void): string {
  const tree = packTree("small");
  edit(tree);
  rehash(tree);
  const file = join(mkdtempSync(join(tmpdir(), "verify-esc-")), "pack.json");
  writeFileSync(file, toBytes(tree));
  return file;
}

/** Each printed line has no control character and is not one of the forged verdicts. */
function expectClean(text: string): void {
  expect(text).not.toMatch(CONTROL);
  const lines = text.split("\n");
  expect(lines.filter((l) => /^policy \w+: MET$/.test(l)).length).toBeLessThanOrEqual(1);
  expect(lines).not.toContain("policy onchain: MET");
}

const servers: Server[] = [];
afterEach(() => {
  for (const s of servers.splice(0)) {
    s.closeAllConnections();
    s.close();
  }
});

async function serve(
  handler: (body: string, url: string) => { status: number; body: unknown },
): Promise<string> {
  const server = createServer((req, res) => {
    let body = "";
    req.setEncoding("utf8").on("data", (d: string) => (body += d));
    req.on("end", () => {
      const a = handler(body, req.url ?? "");
      res.writeHead(a.status, { "content-type": "application/json" });
      res.end(JSON.stringify(a.body));
    });
  });
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

describe("printable (the one rule for untrusted text shown on a terminal)", () => {
  it("removes every control character, trims, and cuts to the limit", async () => {
    const { printable } = await import("../src/text.js");
    expect(printable(FORGED, 300)).toBe("[2K [1A [2K [32mpolicy offline: MET [0m policy onchain: MET [8m");
    expect(printable("a\u202eb\u2066c\u2028d", 300)).toBe("a b c d");
    expect(printable("x".repeat(500), 20)).toBe(`${"x".repeat(17)}...`);
    // a cut never leaves half of a surrogate pair
    expect(printable(`${"x".repeat(16)}\u{1F600}tail`, 20)).toBe(`${"x".repeat(16)}...`);
  });
});

describe("the pack's own strings (D2-F9c)", () => {
  it("a forged benchmark.slug and bounty_contract are printed without their escapes, on the first line only", async () => {
    const file = forgedPack((t) => {
      at(t, "benchmark").slug = FORGED;
      at(t, "benchmark").bounty_contract = FORGED;
    });
    const r = await run(["verify", file]);
    expect(r.code, r.stderr).toBe(1); // the receipts name another slug: digest_chain fails
    expectClean(r.stdout);
    expect(r.stdout.split("\n")[0]).toMatch(
      /^bench-bounty verify: \[2K .*policy offline: MET .*\(bounty 3 on chain 8453, contract /,
    );
    expect(r.stdout).toMatch(/\npolicy offline: NOT MET \(/);
  });

  it("--verbose prints every reason quoting the pack without control characters", async () => {
    const file = forgedPack((t) => {
      at(t, "winners", 0).agent_id = FORGED;
    });
    const r = await run(["verify", file, "--verbose"]);
    expect(r.code).toBe(1);
    expectClean(r.stdout);
  });
});

describe("an RPC's own text (D2-F9)", () => {
  it("an answer with escapes (eth_chainId is not a number): exit 3, the RPC's text printed without them", async () => {
    const rpc = await serve((body) => {
      const req = JSON.parse(body) as { id: number } | { id: number }[];
      // viem's error quotes the answer: "Cannot convert <result> to a BigInt"
      const one = (q: { id: number }) => ({ jsonrpc: "2.0", id: q.id, result: FORGED });
      return { status: 200, body: Array.isArray(req) ? req.map(one) : one(req) };
    });
    const r = await run([
      "verify",
      join(fileURLToPath(new URL("../../../spec/vectors/packs/", import.meta.url)), "small.json"),
      "--rpc",
      rpc,
      "--policy",
      "onchain",
    ]);
    expect(r.code, r.stderr).toBe(3);
    expect(r.stderr).toMatch(/^verify: cannot read rpc http:\/\/127\.0\.0\.1:\d+: eth_chainId: /);
    expectClean(r.stderr);
    expect(r.stderr.trimEnd().split("\n")).toHaveLength(1);
  });
});

describe("the indexer's text (D2-F9b)", () => {
  it("a bounty field with escapes is a disagreement printed without them (table and --verbose)", async () => {
    const idx = await serve(() => ({
      status: 200,
      body: { bounty: { pool: FORGED, status: FORGED }, winners: [], items: [], credits: [], anchors: [] },
    }));
    const small = join(fileURLToPath(new URL("../../../spec/vectors/packs/", import.meta.url)), "small.json");
    for (const extra of [[], ["--verbose"]]) {
      const r = await run(["verify", small, "--indexer", idx, "--policy", "full", ...extra]);
      expect(r.code, r.stderr).toBe(1);
      expectClean(r.stdout);
      // not plain: shown as a JSON string, the escapes written out (probe29 B-F5)
      expect(r.stdout).toContain('GET /bounties/3: bounty.pool is "\\r\\u001b[2k\\u001b[1a\\u001b[2k');
    }
  });

  it("the JSON report keeps the indexer's text without control characters too", async () => {
    const idx = await serve(() => ({
      status: 200,
      body: { bounty: { pool: FORGED }, winners: [], items: [], credits: [], anchors: [] },
    }));
    const small = join(fileURLToPath(new URL("../../../spec/vectors/packs/", import.meta.url)), "small.json");
    const r = await run(["verify", small, "--indexer", idx, "--json"]);
    const report = JSON.parse(r.stdout) as { facts: { indexer_agreement: { reasons: string[] } } };
    for (const reason of report.facts.indexer_agreement.reasons) expect(reason).not.toMatch(CONTROL);
  });
});
