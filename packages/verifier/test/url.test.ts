/**
 * probe10 R3 and R2: a route is joined to an indexer base URL with the URL API (after the base's
 * path, before its query; userinfo sent as Basic auth), and the CLI prints an RPC's or indexer's
 * origin only, never its userinfo, path or query; `--rpc` / `--indexer` have env forms.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { startBasicAuthRpcStub, type RpcStub } from "@bench-bounty/devchain/stubs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { indexerGetter } from "../src/indexer/context.js";
import { rpcClient } from "../src/onchain/index.js";
import { credentialsToHeader, joinRoute, urlOrigin } from "../src/url.js";
import { VECTORS, runCliAsync } from "./helpers.js";

const SMALL = join(VECTORS, "small.json");

const run = runCliAsync;

let server: Server;
let host: string;
const seen: { url: string; auth: string | undefined }[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    seen.push({ url: req.url ?? "", auth: req.headers.authorization });
    res.setHeader("content-type", "application/json");
    if (req.url?.includes("/fail")) {
      res.statusCode = 500;
      res.end("{}");
    } else if (req.url?.includes("/nf/")) {
      res.statusCode = 404;
      res.end(
        JSON.stringify({
          error: { code: "not_found", message: "no such bounty", details: { bounty_id: "7" } },
        }),
      );
    } else if (req.url?.includes("/platform404/")) {
      // this project's platform server at the --indexer URL: its own not_found, no id echoed (probe13 C6)
      res.statusCode = 404;
      res.end(
        JSON.stringify({
          error: { code: "not_found", message: "no such endpoint", details: { path: req.url } },
        }),
      );
    } else if (req.url?.includes("/rpc200/")) {
      // a JSON-RPC node answers any GET with 200 and a JSON-RPC error (probe13 C6)
      res.end(JSON.stringify({ jsonrpc: "2.0", id: null, error: { code: -32700, message: "Parse error" } }));
    } else if (req.url?.includes("/noroute/")) {
      res.statusCode = 404;
      res.end(JSON.stringify({ error: { code: "no_route", message: "no route" } }));
    } else if (req.url?.includes("/html200/")) {
      // a proxy's, a captive portal's or a single-page app's page: 200, not JSON (probeD2 F5)
      res.setHeader("content-type", "text/html");
      res.end("<!doctype html><html><body>Sign in</body></html>");
    } else if (req.url?.includes("/proxy404/")) {
      res.statusCode = 404;
      res.setHeader("content-type", "text/html");
      res.end("<html>Not Found</html>");
    } else res.end(JSON.stringify({ url: req.url }));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  host = `127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => {
  server.closeAllConnections();
  server.close();
});

describe("joinRoute", () => {
  it("appends the route to the base's path and keeps the query", () => {
    expect(joinRoute("http://h:1", "/bounties/3").url).toBe("http://h:1/bounties/3");
    expect(joinRoute("http://h:1/", "/bounties/3").url).toBe("http://h:1/bounties/3");
    expect(joinRoute("http://h:1/v1/KEY", "/bounties/3").url).toBe("http://h:1/v1/KEY/bounties/3");
    expect(joinRoute("http://h:1/v1/KEY//", "/bounties/3").url).toBe("http://h:1/v1/KEY/bounties/3");
    expect(joinRoute("http://h:1/v1/?token=T&k=K#frag", "/bounties/3").url).toBe(
      "http://h:1/v1/bounties/3?token=T&k=K",
    );
    expect(joinRoute("http://h:1/?token=T", "/awards?winner=0xab").url).toBe(
      "http://h:1/awards?token=T&winner=0xab",
    );
    expect(joinRoute("http://h:1/", "/bounties/3").headers).toEqual({});
  });

  it("moves userinfo into an Authorization: Basic header", () => {
    const j = joinRoute("http://us%40er:p%3Aw@h:1/v1?token=T", "/bounties/3");
    expect(j.url).toBe("http://h:1/v1/bounties/3?token=T");
    expect(j.headers).toEqual({ authorization: `Basic ${Buffer.from("us@er:p:w").toString("base64")}` });
  });

  it("urlOrigin keeps scheme, host and port only", () => {
    expect(urlOrigin("https://u:pw@h.example:8545/v3/KEY?apikey=Q#f")).toBe("https://h.example:8545");
    expect(urlOrigin("not a url")).toBe("(not a URL)");
  });
});

describe("the indexer getter reaches /bounties/N whatever the base", () => {
  const cases: [string, () => string, string, string | undefined][] = [
    ["a path", () => `http://${host}/v1/PATHKEY`, "/v1/PATHKEY/bounties/7", undefined],
    ["a trailing slash", () => `http://${host}/v1/`, "/v1/bounties/7", undefined],
    ["a query", () => `http://${host}/?token=TOK&k=K`, "/bounties/7?token=TOK&k=K", undefined],
    [
      "userinfo",
      () => `http://vu:VPW@${host}/ix?token=TOK`,
      "/ix/bounties/7?token=TOK",
      `Basic ${Buffer.from("vu:VPW").toString("base64")}`,
    ],
  ];
  for (const [what, base, path, auth] of cases)
    it(`a base with ${what}`, async () => {
      seen.length = 0;
      const r = await indexerGetter(base(), 5_000, 1 << 20)("/bounties/7");
      expect(r).toMatchObject({ status: 200, body: { url: path } });
      expect(seen).toEqual([{ url: path, auth }]);
    });

  it("an error names the indexer by its origin only", async () => {
    const p = indexerGetter(`http://vu:VPW@${host}/fail/PATHKEY?token=TOK`, 5_000, 1 << 20)("/bounties/7");
    await expect(p).rejects.toThrow(`indexer http://${host}: GET /bounties/7: http 500`);
  });
});

describe("a 404 that is not the indexer's not_found is a wrong base URL, not an answer", () => {
  it("the getter takes not_found as an answer and refuses no_route or a proxy's page", async () => {
    expect(await indexerGetter(`http://${host}/nf/`, 5_000, 1 << 20)("/bounties/7")).toMatchObject({
      status: 404,
    });
    for (const prefix of ["noroute", "proxy404", "platform404"]) {
      const p = indexerGetter(`http://${host}/${prefix}/IXKEY`, 5_000, 1 << 20)("/bounties/7");
      await expect(p, prefix).rejects.toMatchObject({ code: "indexer_refused", path: "--indexer" });
      await expect(p, prefix).rejects.toThrow(`the indexer http://${host} has no route GET /bounties/7`);
    }
  });

  it("verify --indexer at a JSON-RPC node (200, no bounty object) exits 2, not an indexer_agreement FAIL (probe13 C6)", async () => {
    const r = await run(["verify", SMALL, "--indexer", `http://${host}/rpc200/`, "--policy", "full"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/is not the indexer's \(no bounty object\)/);
    expect(r.stdout).not.toContain("indexer_agreement");
  });

  it("a 200 that is not JSON is another server at the URL: exit 2 indexer_refused, not exit 3 (probeD2 F5)", async () => {
    const p = indexerGetter(`http://${host}/html200/IXKEY`, 5_000, 1 << 20)("/bounties/7");
    await expect(p).rejects.toMatchObject({ code: "indexer_refused", path: "--indexer" });
    await expect(p).rejects.toThrow(
      `the answer of http://${host} to GET /bounties/7 is not the indexer's (the answer is not JSON)`,
    );
    const r = await run(["verify", SMALL, "--indexer", `http://${host}/html200/IXPATH`, "--policy", "full"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("is not the indexer's (the answer is not JSON)");
    expect(r.stderr).toContain("check the indexer URL");
    expect(r.stderr + r.stdout).not.toContain("IXPATH");
  });

  it("verify --indexer with a wrong path exits 2 naming the configuration error, not a FAIL", async () => {
    const r = await run(["verify", SMALL, "--indexer", `http://${host}/noroute/IXPATH`, "--policy", "full"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`has no route GET /bounties/`);
    expect(r.stdout).not.toContain("indexer_agreement");
    expect(r.stderr + r.stdout).not.toContain("IXPATH");
  });
});

describe("a pack URL with userinfo or a query (probe13 B1: the password was printed twice)", () => {
  it("an unreachable one is named without its userinfo or query; --json too", async () => {
    for (const extra of [[], ["--json"]]) {
      const r = await run([
        "verify",
        "http://u:PACKPW13@127.0.0.1:1/door/pack.json?token=PACKTOK13",
        ...extra,
      ]);
      expect(r.code).toBe(3);
      expect(r.stderr).toContain("url http://127.0.0.1:1/door/pack.json (query not shown)");
      expect(r.stderr + r.stdout).not.toMatch(/PACKPW13|PACKTOK13/);
    }
  });

  it("the userinfo reaches the server as Basic auth", async () => {
    seen.length = 0;
    const r = await run(["verify", `http://pu:PACKPW13@${host}/door/pack.json`]);
    expect(seen).toEqual([
      { url: "/door/pack.json", auth: `Basic ${Buffer.from("pu:PACKPW13").toString("base64")}` },
    ]);
    expect(r.code).toBe(2); // the stub's answer is no pack
    expect(r.stderr + r.stdout).not.toContain("PACKPW13");
  });
});

describe("verify prints an RPC's or indexer's origin only (probe10 R2)", () => {
  it("--rpc with userinfo, a key in the path and the query", async () => {
    const r = await run([
      "verify",
      SMALL,
      "--rpc",
      "http://u:VRPCPW@127.0.0.1:1/v3/VRPCPATH?apikey=VRPCQ",
      "--policy",
      "onchain",
    ]);
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/^verify: cannot read rpc http:\/\/127\.0\.0\.1:1: /);
    expect(r.stderr + r.stdout).not.toMatch(/VRPCPW|VRPCPATH|VRPCQ/);
  });

  it("the env forms BENCH_BOUNTY_VERIFY_RPC_URL and BENCH_BOUNTY_VERIFY_INDEXER_URL", async () => {
    const rpc = await run(["verify", SMALL, "--policy", "onchain"], {
      BENCH_BOUNTY_VERIFY_RPC_URL: "http://u:VRPCPW@127.0.0.1:1/v3/VRPCPATH?apikey=VRPCQ",
    });
    expect(rpc.code).toBe(3);
    expect(rpc.stderr).toMatch(/^verify: cannot read rpc http:\/\/127\.0\.0\.1:1: /);
    expect(rpc.stderr).not.toMatch(/VRPCPW|VRPCPATH|VRPCQ/);
    seen.length = 0;
    const ix = await run(["verify", SMALL, "--policy", "full"], {
      BENCH_BOUNTY_VERIFY_INDEXER_URL: `http://vu:VIDXPW@${host}/fail/VIDXPATH?token=VIDXT`,
    });
    expect(ix.code).toBe(3);
    expect(ix.stderr).toMatch(
      new RegExp(`^verify: cannot read indexer http://${host}: GET /bounties/\\d+: http 500`),
    );
    expect(ix.stderr).not.toMatch(/VIDXPW|VIDXPATH|VIDXT/);
    // the head first (GET /status, probe29 C-F7), then the bounty, each joined the same way
    expect(seen[0]?.url).toBe("/fail/VIDXPATH/status?token=VIDXT");
    expect(seen[1]?.url).toMatch(/^\/fail\/VIDXPATH\/bounties\/\d+\?token=VIDXT$/);
  });

  it("the report (table and JSON) names the indexer by its origin", async () => {
    const env = { BENCH_BOUNTY_VERIFY_INDEXER_URL: `http://vu:VIDXPW@${host}/nf/VIDXPATH?token=VIDXT` };
    const table = await run(["verify", SMALL, "--policy", "full"], env);
    expect(table.stdout).toContain(`indexer: http://${host}\n`);
    expect(table.stdout + table.stderr).not.toMatch(/VIDXPW|VIDXPATH|VIDXT/);
    const report = await run(["verify", SMALL, "--json"], env);
    expect(JSON.parse(report.stdout).observed.indexer).toBe(`http://${host}`);
  });

  it("--help names the env forms", async () => {
    const r = await run(["verify", "--help"]);
    expect(r.stdout).toContain("BENCH_BOUNTY_VERIFY_RPC_URL");
    expect(r.stdout).toContain("BENCH_BOUNTY_VERIFY_INDEXER_URL");
  });
});

describe("verify and verify-receipt refuse a non-http(s) URL option without echoing it (probe10 R2)", () => {
  const bad = "ftp://u:BADPW@x/BADPATH?apikey=BADQ";
  it.each([
    [["verify", SMALL, "--rpc", bad], "verify: bad input: --rpc: expected an http(s) URL (scheme ftp;"],
    [
      ["verify", SMALL, "--indexer", bad],
      "verify: bad input: --indexer: expected an http(s) URL (scheme ftp;",
    ],
    [["verify", bad], "verify: bad input: <pack>: expected an http(s) URL (scheme ftp;"],
    [
      ["verify-receipt", SMALL, "--jwks", "x.json", "--rpc", bad],
      "verify-receipt: bad input: --rpc: expected an http(s) URL (scheme ftp;",
    ],
    [["verify", SMALL, "--rpc", "not a url BADPW"], "verify: bad input: --rpc: expected an http(s) URL (the"],
  ])("%j", async (args, start) => {
    const r = await run(args);
    expect(r.code).toBe(2);
    expect(r.stderr.startsWith(start)).toBe(true);
    expect(r.stderr).toContain("the value is not printed");
    expect(r.stderr + r.stdout).not.toMatch(/BADPW|BADPATH|BADQ/);
  });
});

describe("verify-receipt --rpc has the env form BENCH_BOUNTY_VERIFY_RPC_URL", () => {
  it("is read from the environment (a bad value is refused naming the variable) and named in --help", async () => {
    const r = await run(["verify-receipt", SMALL, "--jwks", "x.json"], {
      BENCH_BOUNTY_VERIFY_RPC_URL: "ftp://u:ENVPW@x/ENVPATH",
    });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(
      /^verify-receipt: bad input: BENCH_BOUNTY_VERIFY_RPC_URL \(the environment form of --rpc\): expected an http\(s\) URL/,
    );
    expect(r.stderr).not.toMatch(/ENVPW|ENVPATH/);
    const help = await run(["verify-receipt", "--help"]);
    expect(help.stdout).toContain("BENCH_BOUNTY_VERIFY_RPC_URL");
  });
});

describe("an RPC URL with userinfo is sent as Basic auth (fetch refuses credentials in a URL)", () => {
  let rpc: RpcStub;
  beforeAll(async () => {
    rpc = await startBasicAuthRpcStub("ru", "r p@ss");
  });
  afterAll(() => rpc.close());

  it("credentialsToHeader strips the userinfo and keeps the path and query", () => {
    expect(credentialsToHeader("https://a%20b:c%40d@h:1/v3/K?apikey=Q")).toEqual({
      url: "https://h:1/v3/K?apikey=Q",
      headers: { authorization: `Basic ${Buffer.from("a b:c@d").toString("base64")}` },
    });
    expect(credentialsToHeader("https://h/v3/K")).toEqual({ url: "https://h/v3/K", headers: {} });
  });

  it("the verifier's RPC client answers eth_chainId", async () => {
    const client = rpcClient(`http://ru:r%20p%40ss@${rpc.host}/v3/RPCKEY?apikey=Q`, { timeoutMs: 5_000 });
    await expect(client.getChainId()).resolves.toBe(31337);
    expect(rpc.seen.at(-1)?.url).toBe("/v3/RPCKEY?apikey=Q");
  });

  it("a wrong password is an error naming the RPC by its origin only", async () => {
    const r = await run(["verify", SMALL, "--policy", "onchain", "--timeout", "5000"], {
      BENCH_BOUNTY_VERIFY_RPC_URL: `http://ru:WRONGPW@${rpc.host}/v3/RPCKEY?apikey=RPCQ`,
    });
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(new RegExp(`^verify: cannot read rpc http://${rpc.host}: `));
    expect(r.stderr + r.stdout).not.toMatch(/WRONGPW|RPCKEY|RPCQ/);
  });
});
