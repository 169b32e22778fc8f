/**
 * Error messages a stranger sees: the evidence door's 404 reason is quoted,
 * an unwritable `--out` is a write failure naming `--out`, a malformed `--rpc`
 * or `--indexer` (or a pack, execute response written as a malformed or
 * non-http(s) URL) is a bad option (exit 2, not a network failure), and a bad
 * input names its JSON path, the document root `$` included.
 */
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MAX_ERROR_BODY_BYTES, readErrorDetail } from "../src/source.js";
import { VerifierNetworkError, verifyPack } from "../src/index.js";
import { VECTORS, runCliAsync } from "./helpers.js";

const SMALL = join(VECTORS, "small.json");

const run = runCliAsync;

/** A stack trace line as Node prints it. */
const STACK = /^\s+at .+\(.+:\d+:\d+\)$|^\s+at .+:\d+:\d+$/m;

/** The evidence door's answer while the contest is live (packages/platform, SPEC: the door withholds the pack). */
const LIVE_BODY = {
  error: {
    code: "award_evidence_unavailable",
    message: "the contest is live until 1796030257 (unix seconds)",
    reason: "withheld_live_contest",
  },
};

let server: Server;
let base: string;

beforeAll(async () => {
  server = createServer((req, res) => {
    res.setHeader("content-type", "application/json");
    res.statusCode = 404;
    if (req.url === "/api/v1/benchmarks/live/award-evidence") res.end(JSON.stringify(LIVE_BODY));
    else if (req.url === "/html") {
      res.setHeader("content-type", "text/html");
      res.end("<html><body>Not Found</body></html>");
    } else if (req.url === "/endless") {
      // a body that never ends: the verifier must read a bounded prefix and stop
      const chunk = Buffer.alloc(64 * 1024, 0x20);
      const pump = (): void => {
        while (!res.destroyed && res.write(chunk));
        if (!res.destroyed) res.once("drain", pump);
      };
      pump();
    } else res.end("{}");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => {
  server.closeAllConnections();
  server.close();
});

describe("the evidence door's 404 reason", () => {
  it("the CLI prints `http 404: <reason>: <message>` and exits 3", async () => {
    const url = `${base}/api/v1/benchmarks/live/award-evidence`;
    const r = await run(["verify", url]);
    expect(r.code).toBe(3);
    expect(r.stderr).toBe(
      `verify: cannot read url ${url}: http 404: withheld_live_contest: the contest is live until 1796030257 (unix seconds)\n`,
    );
  });

  it("verifyPack throws a VerifierNetworkError carrying the reason", async () => {
    const p = verifyPack({ source: `${base}/api/v1/benchmarks/live/award-evidence` });
    await expect(p).rejects.toThrow(VerifierNetworkError);
    await expect(p).rejects.toThrow(
      /: http 404: withheld_live_contest: the contest is live until 1796030257/,
    );
  });

  it("a body that is not JSON leaves the bare status", async () => {
    await expect(verifyPack({ source: `${base}/html` })).rejects.toThrow(/: http 404$/);
    await expect(verifyPack({ source: `${base}/empty-object` })).rejects.toThrow(/: http 404$/);
  });

  it("an endless error body is read only up to the bound", async () => {
    await expect(verifyPack({ source: `${base}/endless`, timeoutMs: 10_000 })).rejects.toThrow(/: http 404$/);
  });
});

describe("readErrorDetail trusts the body for nothing but a short reason", () => {
  const answer = (body: ConstructorParameters<typeof Response>[0]): Response =>
    new Response(body, { status: 404 });

  it("reads the door's shape, a top-level reason, or an error string", async () => {
    expect(await readErrorDetail(answer(JSON.stringify(LIVE_BODY)))).toBe(
      "withheld_live_contest: the contest is live until 1796030257 (unix seconds)",
    );
    expect(await readErrorDetail(answer('{"reason":"not_awarded"}'))).toBe("not_awarded");
    expect(await readErrorDetail(answer('{"error":"not_found"}'))).toBe("not_found");
    // no reason: the code stands in for it
    expect(await readErrorDetail(answer('{"error":{"code":"not_found","message":"no such endpoint"}}'))).toBe(
      "not_found: no such endpoint",
    );
  });

  it("ignores bodies that are not a JSON object", async () => {
    for (const body of ["", "null", "[1,2]", '"withheld"', "42", "not json", '{"error":'])
      expect(await readErrorDetail(answer(body))).toBe("");
    expect(await readErrorDetail(answer(null))).toBe("");
  });

  it("drops a reason that is not an identifier and removes control characters from the message", async () => {
    const body = JSON.stringify({
      error: { reason: "\u001b[31mred\u001b[0m", message: "line one\nline two\u001b]0;title\u0007" },
    });
    const detail = await readErrorDetail(answer(body));
    expect(detail).toBe("line one line two ]0;title");
    expect(detail).not.toMatch(/[\u0000-\u001f\u007f-\u009f]/);
  });

  it("cuts a long message to 300 characters", async () => {
    const detail = await readErrorDetail(
      answer(JSON.stringify({ error: { reason: "r", message: "m".repeat(5000) } })),
    );
    expect(detail.length).toBe("r: ".length + 300);
    expect(detail.endsWith("...")).toBe(true);
  });

  it(`reads at most ${MAX_ERROR_BODY_BYTES} bytes of the body`, async () => {
    let pulled = 0;
    const endless = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled += 1024;
        controller.enqueue(new Uint8Array(1024).fill(0x20));
      },
    });
    expect(await readErrorDetail(answer(endless))).toBe("");
    // the stream may pull a chunk ahead (high-water mark), never the whole body
    expect(pulled).toBeLessThanOrEqual(MAX_ERROR_BODY_BYTES + 2 * 1024);
  });
});

describe("an indexer that refuses the request (probe11 O9)", () => {
  it("400 invalid_parameter is a bad option naming the parameter, never its value: exit 2", async () => {
    const seen: string[] = [];
    const idx = createServer((req, res) => {
      seen.push(req.url ?? "");
      res.statusCode = 400;
      res.setHeader("content-type", "application/json");
      res.end(
        JSON.stringify({ error: { code: "invalid_parameter", parameter: "token", message: "VIDXT11" } }),
      );
    });
    await new Promise<void>((resolve) => idx.listen(0, "127.0.0.1", resolve));
    const origin = `http://127.0.0.1:${(idx.address() as AddressInfo).port}`;
    try {
      const r = await run(["verify", SMALL, "--indexer", `${origin}/?token=VIDXT11`]);
      expect(seen.length).toBeGreaterThan(0);
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toMatch(
        new RegExp(
          `^verify: bad input: --indexer: the indexer ${origin} refuses GET /\\S+: http 400 invalid_parameter \\(parameter token\\); a configuration error, not retried`,
          "m",
        ),
      );
      expect(r.stderr + r.stdout).not.toContain("VIDXT11");
      expect(r.stderr).not.toMatch(STACK);
    } finally {
      idx.closeAllConnections();
      idx.close();
    }
  });
});

describe("--out that cannot be written", () => {
  it("is a write failure naming --out (exit 3), and nothing is written", async () => {
    const dir = mkdtempSync(join(tmpdir(), "verify-out-"));
    const out = join(dir, "no-such-dir", "x.json");
    const r = await run(["verify", SMALL, "--out", out]);
    expect(r.code).toBe(3);
    expect(r.stderr).toBe(`verify: cannot write --out ${out}: its directory does not exist (ENOENT)\n`);
    expect(r.stderr).not.toMatch(/cannot read/);
    expect(r.stdout).toBe("");
    expect(existsSync(join(dir, "no-such-dir"))).toBe(false);
  });
});

describe("--rpc and --indexer must be http(s) URLs: exit 2 naming the option", () => {
  it.each([
    [
      ["--rpc", "not-a-url"],
      /^verify: bad input: --rpc: expected an http\(s\) URL \(the value is not printed: it may carry a key\)$/m,
    ],
    [
      ["--rpc", "ftp://127.0.0.1/x"],
      /^verify: bad input: --rpc: expected an http\(s\) URL \(scheme ftp; the value is not printed: it may carry a key\)$/m,
    ],
    [
      ["--indexer", "localhost:42069"],
      /^verify: bad input: --indexer: expected an http\(s\) URL \(scheme localhost; the value is not printed: it may carry a key\)$/m,
    ],
    [
      ["--indexer", "file:///etc/passwd"],
      /^verify: bad input: --indexer: expected an http\(s\) URL \(scheme file; the value is not printed: it may carry a key\)$/m,
    ],
  ])("%j", async (flags, message) => {
    const r = await run(["verify", SMALL, ...flags]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
    expect(r.stderr).not.toMatch(STACK);
  });

  it("is checked before the pack is read (a missing pack does not turn it into exit 3)", async () => {
    const r = await run(["verify", "/nonexistent/pack.json", "--rpc", "not-a-url"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--rpc: expected an http\(s\) URL/);
  });

  it("verify-receipt checks --rpc the same way", async () => {
    const r = await run([
      "verify-receipt",
      "/nonexistent/execute.json",
      "--jwks",
      "/nonexistent/jwks.json",
      "--rpc",
      "ftp://x",
    ]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(
      /^verify-receipt: bad input: --rpc: expected an http\(s\) URL \(scheme ftp; the value is not printed: it may carry a key\)$/m,
    );
  });
});

// probe33 C-F8: the indexer's or the platform's URL given as --rpc said only "HTTP request failed."
describe("an --rpc URL that answers, but not as a JSON-RPC node", () => {
  it("exit 3 naming the call, the http status and what the URL seems not to be", async () => {
    const r = await run(["verify", SMALL, "--rpc", `${base}/api/v1`, "--policy", "onchain"]);
    expect(r.code, r.stderr).toBe(3);
    expect(r.stderr).toMatch(
      /^verify: cannot read rpc http:\/\/127\.0\.0\.1:\d+: eth_chainId: HTTP request failed\. \(http 404: the URL answered, but not as a JSON-RPC node: is it the chain's RPC endpoint\?\)$/m,
    );
    expect(r.stderr).not.toMatch(STACK);
  });
});

describe("a file path that names no file is bad input (exit 2) naming the path, for every document", () => {
  it.each([
    [["verify-receipt", "/nonexistent/execute.json", "--jwks", "/nonexistent/jwks.json"], "execute response"],
    [["verify", "/nonexistent/dir/pack.json"], "pack"],
  ])("%j", async (args, what) => {
    const r = await run(args);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(
      new RegExp(`^${args[0]}: bad input: file \\S+: no such file \\(the ${what}\\)$`, "m"),
    );
    expect(r.stderr).not.toMatch(STACK);
  });
});

describe("a pack or execute response written as a URL must be a well-formed http(s) URL: exit 2", () => {
  it.each([
    [
      ["verify", "https://"],
      /^verify: bad input: <pack>: expected an http\(s\) URL \(the value is not printed: it may carry a key\)$/m,
    ],
    [
      ["verify", "ftp://127.0.0.1/pack.json"],
      /^verify: bad input: <pack>: expected an http\(s\) URL \(scheme ftp; the value is not printed: it may carry a key\)$/m,
    ],
    [
      ["verify-receipt", "http://", "--jwks", "/nonexistent/jwks.json"],
      /^verify-receipt: bad input: <execute>: expected an http\(s\) URL \(the value is not printed: it may carry a key\)$/m,
    ],
  ])("%j", async (args, message) => {
    const r = await run(args);
    expect(r.stderr).toMatch(message);
    expect(r.code).toBe(2);
    expect(r.stderr).not.toMatch(STACK);
  });
});

describe("bad input names its JSON path, the root `$` included", () => {
  it("a top-level array: `$: expected an object, found an array`", async () => {
    const dir = mkdtempSync(join(tmpdir(), "verify-array-"));
    const file = join(dir, "array.json");
    writeFileSync(file, "[1, 2, 3]");
    const r = await run(["verify", file]);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe("verify: bad input: $: expected an object, found an array\n");
  });

  it("--max-string: a too-long key names the object holding it", async () => {
    // the vector pack's longest top-level key is "rank_derivation" (15 characters)
    const root = await run(["verify", SMALL, "--max-string", "10"]);
    expect(root.code).toBe(2);
    expect(root.stderr).toBe("verify: bad input: $: a key of 15 UTF-16 code units exceeds the limit of 10\n");

    const dir = mkdtempSync(join(tmpdir(), "verify-key-"));
    const file = join(dir, "nested.json");
    writeFileSync(file, '{"benchmark": {"abcdefghijkl": 1}}');
    const nested = await run(["verify", file, "--max-string", "10"]);
    expect(nested.code).toBe(2);
    expect(nested.stderr).toBe(
      "verify: bad input: $.benchmark: a key of 12 UTF-16 code units exceeds the limit of 10\n",
    );
  });

  // probe36 B-N1: 200 emoji (200 characters, 400 UTF-16 code units) were "a string of 400 characters"
  it("--max-string counts UTF-16 code units and says so, in its message and its help", async () => {
    const tree = JSON.parse(readFileSync(SMALL, "utf8")) as { benchmark: { title: string } };
    tree.benchmark.title = "\u{1F600}".repeat(200);
    const dir = mkdtempSync(join(tmpdir(), "verify-emoji-"));
    const file = join(dir, "emoji.json");
    writeFileSync(file, JSON.stringify(tree));
    const over = await run(["verify", file, "--max-string", "399"]);
    expect(over.code).toBe(2);
    expect(over.stderr).toBe(
      "verify: bad input: $.benchmark.title: string of 400 UTF-16 code units exceeds the limit of 399\n",
    );
    // at the limit it is read (its pack_hash fails: the title is hashed), not refused
    const within = await run(["verify", file, "--max-string", "400"]);
    expect(within.code).toBe(1);
    const help = await run(["verify", "--help"]);
    expect(help.stdout.replace(/\s+/g, " ")).toMatch(
      /--max-string <n> longest string value or key accepted in the pack, in UTF-16 code units/,
    );
  });
});
