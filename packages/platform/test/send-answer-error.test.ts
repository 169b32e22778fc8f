/**
 * probe39 B-N5: a send the RPC answered with a JSON-RPC error object (`{"code":-32000,"message":"connection
 * reset"}`, a gateway whose upstream leg failed after forwarding) though the node took it and mined it: the
 * commitment's anchor was then found and adopted, but the operator's log said "anchor commitment ... failed".
 * Now the signed transaction is looked up by its hash before anything is answered (`sendFailed` in
 * chain.ts), and the log line says the answer was lost and the transaction found mined: adopted.
 */
import { startLossyRpcProxy } from "@bench-bounty/devchain/stubs";
import { describe, expect, it } from "vitest";
import { chainConfig, cities, openTemp, useDevChain } from "./helpers.js";

const devChain = useDevChain();

describe(
  "a send answered with a JSON-RPC error object though mined (probe39 B-N5)",
  { timeout: 120_000 },
  () => {
    it("the commitment's anchor: adopted, anchored, and the log says its answer was lost and the transaction found mined, never 'failed'", async () => {
      const dc = devChain();
      const proxy = await startLossyRpcProxy(dc.rpcUrl);
      const logged: string[] = [];
      const h = await openTemp({
        chain: { ...chainConfig(dc, 0), rpcUrl: proxy.url, log: (line) => logged.push(line) },
      });
      try {
        const ds = await h.createDataset(cities(6, "send-error"));
        proxy.rules.errorOn = ["eth_sendRawTransaction"];
        const { slug } = await h.publish(ds.dataset_id, {
          title: "Send error",
          prompt_template: "Answer for {payload.city}?",
          grader_type: "exact",
        });
        await h.anchorCommitment(slug); // the publish's own anchoring, or this one: one send
        expect(proxy.lost()).toBe(1);
        expect((await h.real.getBenchmark(slug)).commitment_anchor).not.toBeNull();
        const text = logged.join("\n");
        expect(text).toMatch(
          /anchor commitment: the answer to its send was lost \(.*-32000 "connection reset"\); transaction 0x[0-9a-f]{64} found (mined|pending): adopted/,
        );
        expect(text).not.toContain("failed");
      } finally {
        await h.close();
        await proxy.close();
      }
    });
  },
);
