/**
 * `serve` never shows the operator's RPC URL to anyone (probe4 config-rpc.sh: anonymous
 * `GET /config.json` answered the whole `--rpc-url`, and hosted providers carry an API key in its
 * path). Started with a chain whose RPC path holds a secret, every public GET without a path
 * parameter (the web app's paths and each `auth: none` route of the OpenAPI document) is walked and
 * none may contain the secret; `--public-rpc-url` is what the page is told, and only when given.
 */
import { spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { startGenesisRpc } from "./genesis-rpc.js";
import { serveUrl } from "./serve-process.js";

const here = dirname(fileURLToPath(import.meta.url));
const bin = join(here, "..", "dist", "index.js");
const SECRET = "PROVIDER_SECRET_KEY_123";
/** Hardhat's account 0 (a public test key); nothing is sent to the chain in this test. */
const SIGNER = "0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80";
const ADDRESS = "0x" + "11".repeat(20);

const children: ReturnType<typeof spawn>[] = [];
afterEach(() => {
  for (const c of children.splice(0)) if (c.exitCode === null) c.kill("SIGTERM");
});

/** The banner and logs of the last {@link startServe}. */
let printed = { out: "", err: "" };

/**
 * The chain RPC's origin: it answers the open's genesis read only (store28 R-F1), every other call
 * fails, so nothing is sent to a chain.
 */
let rpc = "";
beforeAll(async () => {
  rpc = await startGenesisRpc();
});

async function startServe(extra: string[]): Promise<string> {
  const store = mkdtempSync(join(tmpdir(), "bb-cli-secret-"));
  const args = [bin, "serve", "--store", store, "--port", "0", "--rpc-url", `${rpc}/v2/${SECRET}`];
  args.push(
    "--chain-id",
    "31337",
    "--bounty-contract",
    ADDRESS,
    "--anchor-registry",
    ADDRESS,
    "--usdc",
    ADDRESS,
  );
  const child = spawn(process.execPath, [...args, ...extra], {
    stdio: ["ignore", "pipe", "pipe"],
    env: { PATH: process.env.PATH!, BENCH_BOUNTY_PRIVATE_KEY: SIGNER },
  });
  children.push(child);
  printed = { out: "", err: "" };
  return serveUrl(child, (out, err) => (printed = { out, err }));
}

/** The public GET paths without parameters: the web app's and the `auth: none` API routes. */
async function publicPaths(base: string): Promise<string[]> {
  const doc = (await (await fetch(`${base}/api/v1/openapi.json`)).json()) as {
    paths: Record<string, Record<string, { security?: unknown[] }>>;
  };
  const api = Object.entries(doc.paths)
    .filter(([p, ops]) => !p.includes("{") && ops.get !== undefined && (ops.get.security ?? []).length === 0)
    .map(([p]) =>
      p.startsWith("/api/") || p.startsWith("/mcp") || p.startsWith("/scripts") ? p : `/api/v1${p}`,
    );
  return ["/", "/index.html", "/config.json", "/api/v1/openapi.json", ...api];
}

describe("serve and the operator's RPC URL", { timeout: 60_000 }, () => {
  it("no public response carries the RPC URL's secret path", async () => {
    const base = await startServe([]);
    const paths = await publicPaths(base);
    expect(paths.length).toBeGreaterThan(5);
    const seen: string[] = [];
    for (const p of paths) {
      const res = await fetch(`${base}${p}`);
      const body = await res.text();
      seen.push(`${p} ${res.status}`);
      expect(body, p).not.toContain(SECRET);
      expect(body, p).not.toContain(`${rpc}/`);
    }
    const config = (await (await fetch(`${base}/config.json`)).json()) as Record<string, unknown>;
    expect(config.rpcUrl ?? null, seen.join("\n")).toBeNull();
  });

  it("the banner names the RPC by its origin only (it printed the whole --rpc-url, key and all)", async () => {
    await startServe([]);
    expect(printed.out).toContain(`chain: chain id 31337 via ${rpc}\n`);
    expect(printed.out).toContain(`verifier: full policy, chain ${rpc}, indexer not set`);
    expect(printed.out + printed.err).not.toContain(SECRET);
    expect(printed.out + printed.err).not.toContain(SIGNER.slice(2));
    // and says how receipts are anchored (batched by default: the operator's gas per finalize is bounded)
    expect(printed.out).toMatch(/receipt anchors: batched \(one anchorMany within 2000 ms/);
  });

  it("the page is told the RPC given by --public-rpc-url, and only that one", async () => {
    const base = await startServe(["--public-rpc-url", "https://mainnet.base.org"]);
    const config = (await (await fetch(`${base}/config.json`)).json()) as Record<string, unknown>;
    expect(config.rpcUrl).toBe("https://mainnet.base.org");
    expect(JSON.stringify(config)).not.toContain(SECRET);
  });

  it("--public-rpc-url is served like --public-indexer-url: no userinfo, secret parameters or fragment (probe10 R11)", async () => {
    const leaks = /PUBRPCPW10|PUBRPCK10|PUBRPCT10|#F/;
    const base = await startServe([
      "--public-rpc-url",
      "http://u:PUBRPCPW10@127.0.0.1:39671/v3/PUBPATH10?key=PUBRPCK10&token=PUBRPCT10&chain=8453#F",
      "--public-indexer-url",
      "https://u:PUBPASS8@indexer.example/api/?api_key=PUBKEY8",
    ]);
    const config = (await (await fetch(`${base}/config.json`)).json()) as Record<string, unknown>;
    expect(config.rpcUrl).toBe("http://127.0.0.1:39671/v3/PUBPATH10?chain=8453");
    expect(JSON.stringify(config)).not.toMatch(leaks);
    expect(printed.out).toContain(
      "web verify command: --rpc http://127.0.0.1:39671/v3/PUBPATH10?chain=8453 (left out of --public-rpc-url: userinfo; parameters key, token; the fragment)\n",
    );
    expect(printed.out).toContain(
      "web pages read claims from https://indexer.example/api (left out of --public-indexer-url: userinfo; parameter api_key))",
    );
    expect(printed.out + printed.err).not.toMatch(leaks);
    await expect(startServe(["--public-rpc-url", "rpc PUBRPCPW10"])).rejects.toThrow(
      /--public-rpc-url is not a URL \(the value is not printed/,
    );
    expect(printed.err).not.toContain("PUBRPCPW10");
  });

  it("--public-rpc-url with a path: the banner warns that the path is served as given (a provider key there is public; probe31 A-F5)", async () => {
    const base = await startServe([
      "--public-rpc-url",
      "https://u:p@base-mainnet.g.alchemy.com/v2/PATHKEY?apikey=Q1#frag",
    ]);
    const config = (await (await fetch(`${base}/config.json`)).json()) as Record<string, unknown>;
    expect(config.rpcUrl).toBe("https://base-mainnet.g.alchemy.com/v2/PATHKEY");
    expect(printed.out).toContain(
      "  warning: the path of --public-rpc-url (11 characters) is served to every visitor of the web pages as given; a hosted provider's key in the path (Alchemy /v2/<key>, Infura /v3/<key>) would be public: give a public RPC that carries none\n",
    );
    // a bare origin: no warning
    await startServe(["--public-rpc-url", "https://mainnet.base.org/"]);
    expect(printed.out).toContain("web verify command: --rpc https://mainnet.base.org\n");
    expect(printed.out).not.toContain("warning: the path of --public-rpc-url");
  });

  it("--public-rpc-url, --public-indexer-url and --indexer-url must be http(s): the page's verify command takes no other", async () => {
    for (const [flag, url] of [
      ["--public-rpc-url", "ws://u:WSPW11@127.0.0.1:8546/WSPATH11"],
      ["--public-rpc-url", "wss://rpc.example/WSPATH11"],
      ["--public-indexer-url", "ftp://indexer.example/WSPATH11"],
      ["--indexer-url", "ws://127.0.0.1:42069/WSPATH11"],
    ]) {
      await expect(startServe([flag!, url!]), url).rejects.toThrow(
        `${flag} is not an http(s) URL (scheme ${url!.split(":")[0]}; the value is not printed`,
      );
      expect(printed.out + printed.err).not.toMatch(/WSPW11|WSPATH11/);
    }
  });

  it("the indexer URL is printed by its origin and served only when it is one (probe8 P4, probe9 Q1)", async () => {
    const leaks = /IDXPASS8|IDXTOK8|idxuser|IDXPATH9|IDXSIG9/;
    const base = await startServe([
      "--indexer-url",
      "http://idxuser:IDXPASS8@127.0.0.1:9/v1/IDXPATH9/?token=IDXTOK8&sig=IDXSIG9&chain=1",
    ]);
    expect(printed.out).toContain(`verifier: full policy, chain ${rpc}, indexer http://127.0.0.1:9\n`);
    expect(printed.out).toMatch(/web pages: no indexer served \(--indexer-url has a path or query/);
    expect(printed.out + printed.err).not.toMatch(leaks);
    const config = (await (await fetch(`${base}/config.json`)).json()) as Record<string, unknown>;
    expect(config.indexerUrl ?? null).toBeNull();
    for (const p of await publicPaths(base))
      expect(await (await fetch(`${base}${p}`)).text(), p).not.toMatch(leaks);

    const bare = await startServe(["--indexer-url", "http://idxuser:IDXPASS8@127.0.0.1:9/"]);
    const served = (await (await fetch(`${bare}/config.json`)).json()) as Record<string, unknown>;
    expect(served.indexerUrl).toBe("http://127.0.0.1:9");
    expect(printed.out).toMatch(/web pages read claims from http:\/\/127\.0\.0\.1:9\)/);
  });

  it("--public-indexer-url is what the page reads, also without credentials; a non-URL is refused unprinted", async () => {
    const base = await startServe([
      "--indexer-url",
      "http://idxuser:IDXPASS8@127.0.0.1:9/",
      "--public-indexer-url",
      "https://u:PUBPASS8@indexer.example/api/?api_key=PUBKEY8",
    ]);
    const config = (await (await fetch(`${base}/config.json`)).json()) as Record<string, unknown>;
    expect(config.indexerUrl).toBe("https://indexer.example/api");
    expect(printed.out).toMatch(/indexer http:\/\/127\.0\.0\.1:9\n/);
    await expect(startServe(["--indexer-url", "idx IDXPASS8"])).rejects.toThrow(
      /--indexer-url is not a URL \(the value is not printed/,
    );
    expect(printed.err).not.toContain("IDXPASS8");
  });
});
