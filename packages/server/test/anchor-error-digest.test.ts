/**
 * probe39 A-F1 over HTTP: with the service's account unable to pay gas (a drained wallet), a publish
 * answered `commit_root: null` with a `commitment_anchor_error` spelling out the root ("anchor commitment
 * 0x<root>: ..."), and a finalize its receipt hash the same way in `receipt_anchor_error` (REST and MCP):
 * a stranger who read it could anchor the root first with another kind and no bounty could ever be
 * verified on that benchmark. Now no byte of those answers names the withheld digest.
 */
import { describe, expect, it } from "vitest";
import { call, citiesDataset, CITIES_PUBLISH, postToolCall, register, useChainServer } from "./helpers.js";

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
