/**
 * The evidence door at the edge: the pack's bytes verbatim with ETag = pack hash, 304 on a matching
 * If-None-Match (strong, weak, list, *), 200 on a stale one, and the SPEC 8 reason as a 404 before.
 */
import { describe, expect, it } from "vitest";
import type { AwardEvidenceReason, AwardEvidenceResult } from "@bench-bounty/platform";
import { createApp, DEFAULT_LIMITS, type Domain, type Limits } from "../src/index.js";
import { inlinePackBytesOf, PACK_ANSWER_OVERHEAD_BYTES } from "../src/mcp/tools.js";
import { doorOf } from "./helpers.js";

const PACK = new TextEncoder().encode('{"benchmark":{"slug":"s"},"pack_hash":"0xabc"}');
const HASH = `0x${"ab".repeat(32)}` as const;

function app(awarded: boolean, reason: AwardEvidenceReason = "not_awarded") {
  const door = doorOf(
    (slug): AwardEvidenceResult =>
      awarded && slug === "s"
        ? { kind: "pack", bytes: PACK, pack_hash: HASH, pack_size: PACK.byteLength }
        : { kind: "unavailable", reason, message: "the award has not been settled yet" },
  );
  return Object.assign(createApp({ domain: door.domain as Domain }), {
    bytesReads: () => door.chunkReads + door.bytesReads,
    doorRuns: () => door.doorRuns,
  });
}

/** The answer to an MCP `tools/call award_evidence {slug: "s1"}` on app `a`. */
function postAwardEvidence(a: ReturnType<typeof createApp>): Promise<Response> {
  return a.request("/mcp", {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "tools/call",
      params: { name: "award_evidence", arguments: { slug: "s1" } },
    }),
  }) as Promise<Response>;
}

/** The result of an MCP `tools/call award_evidence {slug: "s1"}` on app `a`. */
async function mcpAwardEvidence(a: ReturnType<typeof createApp>): Promise<any> {
  return JSON.parse(await (await postAwardEvidence(a)).text()).result;
}

describe("evidence door", () => {
  it("serves the bytes with the pack hash as ETag and answers 304 to a matching If-None-Match", async () => {
    const a = app(true);
    const r = await a.request("/api/v1/benchmarks/s/award-evidence");
    expect(r.status).toBe(200);
    expect(new Uint8Array(await r.arrayBuffer())).toEqual(PACK);
    // the door's logic (its reads of the benchmark and award rows) runs once for a 200: the bytes are
    // read by the head's hash, not by running the door again
    expect(a.doorRuns()).toBe(1);
    expect(a.bytesReads()).toBe(1);
    expect(r.headers.get("etag")).toBe(`"${HASH}"`);
    expect(r.headers.get("cache-control")).toMatch(/immutable/);
    for (const inm of [`"${HASH}"`, `W/"${HASH}"`, `"0xother", "${HASH}"`, "*"]) {
      const n = await a.request("/api/v1/benchmarks/s/award-evidence", { headers: { "if-none-match": inm } });
      expect(n.status, inm).toBe(304);
      expect(await n.text()).toBe("");
      expect(n.headers.get("etag")).toBe(`"${HASH}"`);
    }
    // probe20 F4: a 304 never reads the pack's bytes (only the 200s did: the first GET); one run each
    expect(a.bytesReads()).toBe(1);
    expect(a.doorRuns()).toBe(5);
    const stale = await a.request("/api/v1/benchmarks/s/award-evidence", {
      headers: { "if-none-match": '"0xold"' },
    });
    expect(stale.status).toBe(200);
    expect(new Uint8Array(await stale.arrayBuffer())).toEqual(PACK); // read as it is sent
    expect(a.bytesReads()).toBe(2);
    expect(a.doorRuns()).toBe(6);
    const head = await a.request("/api/v1/benchmarks/s/award-evidence", { method: "HEAD" });
    expect(head.status).toBe(200);
  });
  // probe26 A-F2: each 200 read the whole pack into memory (and a 429 of the answer-bytes charge read it
  // too, before refusing it): the bytes are streamed a chunk at a time, read only when sent
  it("streams the pack's exact bytes in chunks, read when sent, and a refused answer reads none", async () => {
    const pack = new TextEncoder().encode(
      JSON.stringify({ benchmark: { slug: "s" }, pad: "é".repeat(2600) }),
    );
    const door = doorOf(() => ({ kind: "pack", bytes: pack, pack_hash: HASH, pack_size: pack.byteLength }));
    // a burst of 4 requests; the pack takes 2 more tokens (one per full 2,000 bytes)
    const limits: Limits = {
      ...DEFAULT_LIMITS,
      rateBurst: 4,
      ratePerSecond: 0.001,
      answerBytesPerToken: 2000,
    };
    const a = createApp({ domain: door.domain as Domain, limits });
    const r = await a.request("/api/v1/benchmarks/s/award-evidence");
    expect(r.status).toBe(200);
    expect(r.headers.get("content-length")).toBe(String(pack.byteLength));
    expect(Buffer.from(await r.arrayBuffer()).equals(Buffer.from(pack))).toBe(true);
    expect(door.bytesReads).toBe(0); // never the whole pack at once
    expect(door.chunkReads).toBe(1);
    // one token left: the request's own passes, the answer's two are not there
    const refused = await a.request("/api/v1/benchmarks/s/award-evidence");
    expect(refused.status).toBe(429);
    expect(((await refused.json()) as any).error.details.limit).toBe("answer_bytes");
    // the refusal describes its own body, not the refused pack's (Content-Length, ETag, Cache-Control)
    expect(refused.headers.get("content-length")).not.toBe(String(pack.byteLength));
    expect(refused.headers.get("etag")).toBeNull();
    expect(refused.headers.get("cache-control") ?? "").not.toMatch(/immutable/);
    expect(door.chunkReads).toBe(1);
  });
  it("answers 404 with the SPEC 8 reason before the award", async () => {
    const r = await app(false).request("/api/v1/benchmarks/s/award-evidence", {
      headers: { "if-none-match": "*" },
    });
    expect(r.status).toBe(404);
    const body = (await r.json()) as any;
    expect(body.error).toMatchObject({
      code: "award_evidence_unavailable",
      reason: "not_awarded",
      details: { reason: "not_awarded" },
    });
  });
  // probe37 C-F2: a bounty Awarded on-chain by an award this store did not prepare was served `not_awarded`
  it("answers 404 awarded_elsewhere with the award's transaction and digests in details, on REST and MCP", async () => {
    const details = {
      bounty_id: "10",
      award_tx: `0x${"25".repeat(32)}`,
      award_block: 83,
      awarded_ranking_digest: `0x${"11".repeat(32)}`,
      prepared_ranking_digest: `0x${"62".repeat(32)}`,
    };
    const message = "bounty 10 was awarded on-chain by transaction 0x2525... with another ranking digest";
    const door = doorOf(() => ({ kind: "unavailable", reason: "awarded_elsewhere", message, details }));
    const a = createApp({
      domain: { ...door.domain, assertBenchmark: async () => undefined } as unknown as Domain,
    });
    const r = await a.request("/api/v1/benchmarks/s/award-evidence");
    expect(r.status).toBe(404);
    expect(((await r.json()) as any).error).toEqual({
      code: "award_evidence_unavailable",
      reason: "awarded_elsewhere",
      message,
      details: { ...details, reason: "awarded_elsewhere" },
    });
    const result = await mcpAwardEvidence(a);
    expect(result.structuredContent).toEqual({
      available: false,
      reason: "awarded_elsewhere",
      message,
      details,
    });
    expect(result.content[0].text).toBe(`no pack: awarded_elsewhere: ${message}`);
  });
  /**
   * A door answering the transient `reason` with `message` and `details` (`retry_after_seconds` among them):
   * REST's GET and HEAD are 503 with that `Retry-After`, GET's body names the reason and details, MCP's
   * `award_evidence` carries them as they are.
   */
  async function expectTransient503(
    reason: AwardEvidenceReason,
    message: string,
    details: { retry_after_seconds: number } & Record<string, unknown>,
  ): Promise<void> {
    const door = doorOf(() => ({ kind: "unavailable", reason, message, details }));
    const a = createApp({
      domain: { ...door.domain, assertBenchmark: async () => undefined } as unknown as Domain,
    });
    for (const method of ["GET", "HEAD"]) {
      const r = await a.request("/api/v1/benchmarks/s/award-evidence", { method });
      expect(r.status, method).toBe(503);
      expect(r.headers.get("retry-after"), method).toBe(String(details.retry_after_seconds));
      if (method === "GET")
        expect(((await r.json()) as any).error).toEqual({
          code: "award_evidence_unavailable",
          reason,
          message,
          details: { ...details, reason },
        });
    }
    const result = await mcpAwardEvidence(a);
    expect(result.structuredContent).toEqual({ available: false, reason, message, details });
  }
  // probe38 C-F3: the door's 503 carried no Retry-After (the CORS headers exposed one that never came)
  it("a 503 pack_pending carries Retry-After from details.retry_after_seconds on REST (GET and HEAD), and the hint in MCP's details", async () => {
    await expectTransient503(
      "pack_pending",
      "the award is confirmed; its pack could not be minted just now: ask again later",
      { retry_after_seconds: 27 },
    );
    // a 404 reason says nothing about retrying
    const nf = await app(false, "not_awarded").request("/api/v1/benchmarks/s/award-evidence");
    expect(nf.status).toBe(404);
    expect(nf.headers.get("retry-after")).toBeNull();
  });
  // probe39 C-F1: a chain too slow for the door's deadline answered `not_awarded` (or `withheld_live_contest`)
  // for a bounty Awarded on-chain; the door now says it cannot tell, and the edge serves that as a transient 503
  it("a 503 bounty_status_unknown (the bounty's on-chain status not read in time) carries Retry-After on REST (GET and HEAD), and its details on MCP", async () => {
    await expectTransient503(
      "bounty_status_unknown",
      "bounty 17's status could not be read from the chain just now (it answered too slowly, or the read failed): whether it is awarded cannot be told: ask again in a moment",
      { bounty_id: "17", retry_after_seconds: 5 },
    );
  });
  it("answers 503 while a confirmed award's pack is being minted (the edge's reason-to-status table)", async () => {
    for (const [reason, status] of [
      ["pack_pending", 503],
      ["award_pending", 404],
      ["unknown_benchmark", 404],
    ] as const) {
      const r = await app(false, reason).request("/api/v1/benchmarks/s/award-evidence");
      expect(r.status, reason).toBe(status);
      expect(((await r.json()) as any).error).toMatchObject({ code: "award_evidence_unavailable", reason });
    }
  });
});

// probe19 A-F8: the MCP tool parsed and re-serialised the whole pack per call (a 23.6 MB pack: +218 MB each)
describe("the MCP award_evidence tool", () => {
  /** The default limit's inline bound. */
  const MCP_INLINE_PACK_BYTES = inlinePackBytesOf(DEFAULT_LIMITS.mcpAnswerBytes);
  const small = new TextEncoder().encode('{"benchmark":{"slug":"s"},"pack_hash":"0xabc"}');
  const large = new TextEncoder().encode(
    JSON.stringify({ benchmark: { slug: "s" }, pad: "x".repeat(MCP_INLINE_PACK_BYTES) }),
  );
  async function toolCall(
    bytes: Uint8Array,
    limits: Partial<Limits> = {},
  ): Promise<{ result: any; bytesReads: number; doorRuns: number; answerBytes: number }> {
    const door = doorOf(() => ({ kind: "pack", bytes, pack_hash: HASH, pack_size: bytes.byteLength }));
    const domain = { ...door.domain, assertBenchmark: async () => undefined };
    const app = createApp({
      domain: domain as unknown as Domain,
      publicBaseUrl: "https://bench.example",
      limits,
    });
    const r = await postAwardEvidence(app);
    expect(r.status).toBe(200);
    const text = await r.text();
    return {
      result: JSON.parse(text).result,
      bytesReads: door.bytesReads,
      doorRuns: door.doorRuns,
      answerBytes: Buffer.byteLength(text),
    };
  }
  const url = "https://bench.example/api/v1/benchmarks/s1/award-evidence";

  it("a pack of at most MCP_INLINE_PACK_BYTES is answered inline with its hash, size and door URL", async () => {
    const { result, bytesReads, doorRuns } = await toolCall(small);
    expect(result.structuredContent).toEqual({
      available: true,
      pack_hash: HASH,
      pack_bytes: small.byteLength,
      url,
      inline: true,
      pack_text: new TextDecoder().decode(small),
    });
    expect(bytesReads).toBe(1);
    // the door's logic ran once: the inline bytes are read by the head's hash
    expect(doorRuns).toBe(1);
  });

  it("a larger pack is named by its hash, size and door URL, never answered inline", async () => {
    const { result, bytesReads } = await toolCall(large);
    expect(result.structuredContent).toEqual({
      available: true,
      pack_hash: HASH,
      pack_bytes: large.byteLength,
      url,
      inline: false,
    });
    expect(JSON.stringify(result).length).toBeLessThan(2_000);
    // probe20 F4: the metadata answer never reads the pack's bytes
    expect(bytesReads).toBe(0);
    expect(result.content[0].text).toBe(
      `pack ${HASH} (${large.byteLength} bytes, over ${MCP_INLINE_PACK_BYTES} inline): GET ${url}`,
    );
  });

  // probe32 A-F7: the pack was parsed with JSON.parse and re-serialised: an integer past 2^53 came out as
  // 1.2345678901234568e+22, a decimal's 1.0 as 1, and the honest pack failed its hash in the verifier
  it("the inline pack is the door's exact text: big integers and decimals as written", async () => {
    const exact =
      '{"benchmark":{"slug":"s"},"test_set":[{"gold":{"fields":{"n":12345678901234567890123,"f":1.0,"e":1e2}}}]}';
    const { result } = await toolCall(new TextEncoder().encode(exact));
    expect(result.structuredContent.inline).toBe(true);
    expect(result.structuredContent.pack_text).toBe(exact);
    expect(result.structuredContent).not.toHaveProperty("pack");
  });

  /** A pack of exactly `size` bytes (canonical JSON: its keys in order, no white space). */
  function packOf(size: number): Uint8Array {
    const empty = '{"benchmark":{"slug":"s"},"pad":""}';
    return new TextEncoder().encode(empty.replace('""', `"${"x".repeat(size - empty.length)}"`));
  }

  // review (mcp24): the inline bound was a fixed 256 KiB, the default answer limit, whatever the
  // server's mcpAnswerBytes: a server with a smaller limit inlined packs it could not answer
  it("under a smaller mcpAnswerBytes a pack over it is answered by its URL, unread; the same pack is inline by default", async () => {
    const limits = { mcpAnswerBytes: 8 * 1024 };
    const pack = packOf(16 * 1024);
    const { result, bytesReads } = await toolCall(pack, limits);
    expect(result.structuredContent).toEqual({
      available: true,
      pack_hash: HASH,
      pack_bytes: pack.byteLength,
      url,
      inline: false,
    });
    expect(bytesReads).toBe(0);
    expect(result.content[0].text).toContain(`over ${inlinePackBytesOf(8 * 1024)} inline`);
    expect((await toolCall(pack)).result.structuredContent.inline).toBe(true);
  });

  it("the bound is the limit less the answer's overhead: a pack whose text as a JSON string is at it is inline and its answer within the limit, one byte more is not", async () => {
    const limit = 16 * 1024;
    const bound = inlinePackBytesOf(limit);
    expect(bound).toBe(limit - PACK_ANSWER_OVERHEAD_BYTES);
    // as a JSON string the text gains its two quotes and a backslash before each of its 10 quotes
    const escaped = (size: number) => JSON.stringify(new TextDecoder().decode(packOf(size))).length;
    expect(escaped(1000)).toBe(1000 + 12);
    const at = await toolCall(packOf(bound - 12), { mcpAnswerBytes: limit });
    expect(at.result.structuredContent.inline).toBe(true);
    expect(at.answerBytes).toBeLessThanOrEqual(limit);
    // one byte more as a JSON string: by its URL (read to measure it)
    const escapedOver = await toolCall(packOf(bound - 11), { mcpAnswerBytes: limit });
    expect(escapedOver.result.structuredContent.inline).toBe(false);
    expect(escapedOver.result.content[0].text).toContain("inline as a JSON string");
    // over the bound as stored: by its URL, unread
    const over = await toolCall(packOf(bound + 1), { mcpAnswerBytes: limit });
    expect(over.result.structuredContent.inline).toBe(false);
    expect(over.bytesReads).toBe(0);
    // a limit under the overhead inlines nothing
    expect(inlinePackBytesOf(100)).toBe(0);
    expect((await toolCall(small, { mcpAnswerBytes: 100 })).result.structuredContent.inline).toBe(false);
  });
});
