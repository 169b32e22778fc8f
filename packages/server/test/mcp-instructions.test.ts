/**
 * m36's note (d37's too): the MCP `instructions` were one text for every process, so a `serve` without a
 * chain on a store used on one told an agent to register with its withdrawal address, which it refuses 503
 * `no_chain`. Such a process now says which calls go to the service's main address; any other keeps the
 * text as it was.
 */
import { Platform } from "@bench-bounty/platform";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { platformDomain, serveApp, type ListeningServer } from "../src/index.js";
import { OPERATOR_KEY, postMcp } from "./helpers.js";

const INITIALIZE = JSON.stringify({
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-03-26", capabilities: {}, clientInfo: { name: "t", version: "1" } },
});

const opened: { platform: Platform; server: ListeningServer }[] = [];
afterAll(async () => {
  for (const o of opened) {
    await o.server.close();
    await o.platform.close();
  }
});

/** A serve without a chain on a fresh store, marked as used on chain 8453 by a chain process or not. */
async function serveChainless(marked: boolean): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), "bb-mcp-instructions-"));
  const platform = await Platform.open({ dir, operatorKey: OPERATOR_KEY });
  if (marked) await platform.ctx.store.anchors.markOnChain(8453);
  const server = await serveApp({ domain: platformDomain(platform), port: 0, host: "127.0.0.1" });
  opened.push({ platform, server });
  return server.url;
}

describe("the MCP instructions of a serve without a chain", () => {
  it("on a store used on a chain: the address and a prize benchmark's run go to the main address", async () => {
    const r = await postMcp(await serveChainless(true), INITIALIZE);
    expect(r.status).toBe(200);
    const text = r.body.result.instructions as string;
    expect(text).toMatch(/^Compete in five calls/);
    expect(text).toContain("This server runs without the service's chain");
    expect(text).toContain("set_withdrawal_address");
    expect(text).toContain("main address");
  });

  it("on a store never used on a chain: the instructions as they were", async () => {
    const r = await postMcp(await serveChainless(false), INITIALIZE);
    expect(r.status).toBe(200);
    const text = r.body.result.instructions as string;
    expect(text).toMatch(/^Compete in five calls/);
    expect(text).not.toContain("without the service's chain");
  });
});
