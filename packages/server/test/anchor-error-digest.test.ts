/**
 * probe39 A-F1 over HTTP: with the service's account unable to pay gas (a drained wallet), a publish
 * answered `commit_root: null` with a `commitment_anchor_error` spelling out the root ("anchor commitment
 * 0x<root>: ..."), and a finalize its receipt hash the same way in `receipt_anchor_error` (REST and MCP):
 * a stranger who read it could anchor the root first with another kind and no bounty could ever be
 * verified on that benchmark. Now no byte of those answers names the withheld digest.
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Platform, type ChainConfig } from "@bench-bounty/platform";
import { echoingProxy } from "@bench-bounty/platform/testing";
import { describe, expect, it } from "vitest";
import { platformDomain, serveApp } from "../src/index.js";
import {
  call,
  citiesDataset,
  CITIES_PUBLISH,
  devChainConfig,
  OPERATOR_KEY,
  postToolCall,
  register,
  useChainServer,
} from "./helpers.js";

const live = useChainServer("anchor-digest");

/** Sets the ETH balance (wei) of the service's signing account: 0 is a drained wallet. */
async function setServiceBalance(wei: bigint): Promise<void> {
  await live.dc.publicClient.request({
    method: "hardhat_setBalance",
    params: [live.platform.chain!.address, `0x${wei.toString(16)}`],
  } as never);
}

/** Whether `text` names `digest` (its 64 hex digits, any case). */
function names(text: string, digest: string): boolean {
  return text.toLowerCase().includes(digest.slice(2).toLowerCase());
}

describe("a drained service wallet at publish and finalize (probe39 A-F1)", { timeout: 120_000 }, () => {
  it("REST publish, REST and MCP finalize: no byte names the pending root or receipt hash", async () => {
    const u = live.server.url;
    const author = await register(u, "drained-author");
    const ds = await call(u, "POST", "/api/v1/datasets", {
      key: author.key,
      body: citiesDataset(6, "drained"),
    });
    expect(ds.status, ds.text).toBe(201);
    const agents = await Promise.all(["drained-a", "drained-b"].map((n) => register(u, n)));
    for (const [i, a] of agents.entries()) {
      const set = await call(u, "PUT", "/api/v1/accounts/me/withdrawal-address", {
        key: a.key,
        body: { withdrawal_address: live.dc.accounts[i + 2]!.address },
      });
      expect(set.status, set.text).toBe(200);
    }
    await setServiceBalance(0n);
    try {
      const pub = await call(u, "POST", `/api/v1/datasets/${ds.json.dataset_id}/benchmark`, {
        key: author.key,
        body: CITIES_PUBLISH,
      });
      expect(pub.status, pub.text).toBe(201);
      const slug = pub.json.slug as string;
      const root = (await live.platform.getBenchmark(slug)).commit_root;
      expect(names(pub.text, root), pub.text).toBe(false);
      expect(pub.json).toMatchObject({ commit_root: null, commitment_anchor_status: "pending" });
      expect(pub.json.commitment_anchor_error).toMatch(/^anchor commitment: .*holds no ETH/);

      const receiptOf = async (runId: string) =>
        (await live.platform.ctx.store.runs.get(runId))!.receipt_hash!;
      const rest = await call(u, "POST", `/api/v1/benchmarks/${slug}/runs`, {
        key: agents[0]!.key,
        body: {},
      });
      expect(rest.status, rest.text).toBe(201);
      const restRun = rest.json.run.id as string;
      const restDone = await call(u, "POST", `/api/v1/benchmarks/runs/${restRun}/finalize`, {
        key: agents[0]!.key,
      });
      expect(restDone.status, restDone.text).toBe(200);
      expect(names(restDone.text, await receiptOf(restRun)), restDone.text).toBe(false);
      expect(names(restDone.text, root)).toBe(false);
      expect(restDone.json).toMatchObject({ receipt_hash: null, receipt_anchor_status: "pending" });
      expect(restDone.json.receipt_anchor_error).toMatch(/^anchor receipt: .*holds no ETH/);

      const started = await postToolCall(u, "benchmark_start_run", { slug }, agents[1]!.key);
      const mcpRun = started.body.result.structuredContent.run.id as string;
      const mcpDone = await postToolCall(u, "benchmark_finalize_run", { run_id: mcpRun }, agents[1]!.key);
      const bytes = JSON.stringify(mcpDone.body);
      expect(names(bytes, await receiptOf(mcpRun)), bytes).toBe(false);
      expect(names(bytes, root)).toBe(false);
      expect(mcpDone.body.result.structuredContent).toMatchObject({
        receipt_hash: null,
        receipt_anchor_status: "pending",
        receipt_anchor_error: expect.stringMatching(/^anchor receipt: .*holds no ETH/),
      });
    } finally {
      await setServiceBalance(10n ** 22n);
    }
  });
});

/** Whether `text` carries a run of 8 of the hex digits of `digest` (a cut or folded digest leaks too). */
function leaksPart(text: string, digest: string): boolean {
  const low = text.toLowerCase();
  const hex = digest.slice(2).toLowerCase();
  for (let i = 0; i + 8 <= hex.length; i++) if (low.includes(hex.slice(i, i + 8))) return true;
  return false;
}

/**
 * A second service on the file's devchain with `chain` (its own store): a REST publish, a REST finalize
 * and an MCP finalize, each answered with its digest pending.
 * @returns the answers' bytes, the root and receipt hashes they withhold, and the three errors served
 */
async function publishAndFinalize(chain: ChainConfig, tag: string) {
  const platform = await Platform.open({
    dir: mkdtempSync(join(tmpdir(), `bb-${tag}-`)),
    operatorKey: OPERATOR_KEY,
    chain,
  });
  const server = await serveApp({ domain: platformDomain(platform, { localChain: true }), port: 0 });
  try {
    const u = server.url;
    const author = await register(u, `${tag}-author`);
    const ds = await call(u, "POST", "/api/v1/datasets", { key: author.key, body: citiesDataset(6, tag) });
    expect(ds.status, ds.text).toBe(201);
    const pub = await call(u, "POST", `/api/v1/datasets/${ds.json.dataset_id}/benchmark`, {
      key: author.key,
      body: CITIES_PUBLISH,
    });
    expect(pub.status, pub.text).toBe(201);
    const slug = pub.json.slug as string;
    const agents = await Promise.all([`${tag}-a`, `${tag}-b`].map((n) => register(u, n)));
    for (const [i, a] of agents.entries()) {
      const set = await call(u, "PUT", "/api/v1/accounts/me/withdrawal-address", {
        key: a.key,
        body: { withdrawal_address: live.dc.accounts[i + 2]!.address },
      });
      expect(set.status, set.text).toBe(200);
    }
    const rest = await call(u, "POST", `/api/v1/benchmarks/${slug}/runs`, { key: agents[0]!.key, body: {} });
    expect(rest.status, rest.text).toBe(201);
    const restRun = rest.json.run.id as string;
    const restDone = await call(u, "POST", `/api/v1/benchmarks/runs/${restRun}/finalize`, {
      key: agents[0]!.key,
    });
    expect(restDone.status, restDone.text).toBe(200);
    const started = await postToolCall(u, "benchmark_start_run", { slug }, agents[1]!.key);
    const mcpRun = started.body.result.structuredContent.run.id as string;
    const mcpDone = await postToolCall(u, "benchmark_finalize_run", { run_id: mcpRun }, agents[1]!.key);
    const receiptOf = async (runId: string) => (await platform.ctx.store.runs.get(runId))!.receipt_hash!;
    const mcp = mcpDone.body.result.structuredContent as Record<string, unknown>;
    return {
      bytes: pub.text + restDone.text + JSON.stringify(mcpDone.body),
      withheld: [
        (await platform.getBenchmark(slug)).commit_root,
        await receiptOf(restRun),
        await receiptOf(mcpRun),
      ],
      errors: [
        pub.json.commitment_anchor_error as string,
        restDone.json.receipt_anchor_error as string,
        mcp.receipt_anchor_error as string,
      ],
      pending: [
        pub.json.commitment_anchor_status,
        restDone.json.receipt_anchor_status,
        mcp.receipt_anchor_status,
      ],
    };
  } finally {
    await server.close();
    await platform.close();
  }
}

describe(
  "an anchoring's served failure leads to no withheld digest (probe40 V-F1, V-F5)",
  { timeout: 120_000 },
  () => {
    it("an RPC refusal echoing the digest cut at its 300-character bound: REST publish, REST and MCP finalize serve no run of 8 of its digits", async () => {
      const proxy = await echoingProxy(live.dc.rpcUrl, "cut");
      try {
        const r = await publishAndFinalize({ ...devChainConfig(live.dc, 5), rpcUrl: proxy.url }, "echo-cut");
        expect(r.pending).toEqual(["pending", "pending", "pending"]);
        for (const e of r.errors)
          expect(e).toMatch(/JSON-RPC error -32000 .*the (commitment|receipt) digest/);
        for (const d of r.withheld) expect(leaksPart(r.bytes, d), r.bytes).toBe(false);
      } finally {
        await proxy.close();
      }
    });

    it("an anchor transaction still pending (automine off): REST publish, REST and MCP finalize name no transaction", async () => {
      const rpc = (method: string, params: unknown[]) =>
        live.dc.publicClient.request({ method, params } as never) as Promise<unknown>;
      const logged: string[] = [];
      await rpc("evm_setAutomine", [false]);
      try {
        const r = await publishAndFinalize(
          { ...devChainConfig(live.dc, 6), anchorWaitMs: 1_500, log: (line) => void logged.push(line) },
          "nomine",
        );
        const pool = (await rpc("eth_getBlockByNumber", ["pending", false])) as { transactions: string[] };
        expect(pool.transactions.length).toBeGreaterThan(0);
        expect(r.pending).toEqual(["pending", "pending", "pending"]);
        for (const e of r.errors) expect(e).toMatch(/anchor transaction .*is not mined yet/);
        for (const d of [...r.withheld, ...pool.transactions])
          expect(leaksPart(r.bytes, d), r.bytes).toBe(false);
        for (const tx of pool.transactions) expect(logged.join("\n")).toContain(tx);
      } finally {
        await rpc("evm_setAutomine", [true]);
        await rpc("evm_mine", []);
      }
    });
  },
);
