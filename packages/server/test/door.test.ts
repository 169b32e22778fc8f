/**
 * The evidence door at the edge: the pack's bytes verbatim with ETag = pack hash, 304 on a matching
 * If-None-Match (strong, weak, list, *), 200 on a stale one, and the SPEC 8 reason as a 404 before.
 */
import { describe, expect, it } from "vitest";
import type { AwardEvidenceReason } from "@bench-bounty/platform";
import { createApp, type Domain } from "../src/index.js";

const PACK = new TextEncoder().encode('{"benchmark":{"slug":"s"},"pack_hash":"0xabc"}');
const HASH = `0x${"ab".repeat(32)}` as const;

function app(awarded: boolean, reason: AwardEvidenceReason = "not_awarded") {
  const domain: Pick<Domain, "awardEvidence"> = {
    awardEvidence: async (slug: string) =>
      awarded && slug === "s"
        ? { kind: "pack", bytes: PACK, pack_hash: HASH }
        : { kind: "unavailable", reason, message: "the award has not been settled yet" },
  };
  return createApp({ domain: domain as Domain });
}

describe("evidence door", () => {
  it("serves the bytes with the pack hash as ETag and answers 304 to a matching If-None-Match", async () => {
    const a = app(true);
    const r = await a.request("/api/v1/benchmarks/s/award-evidence");
    expect(r.status).toBe(200);
    expect(new Uint8Array(await r.arrayBuffer())).toEqual(PACK);
    expect(r.headers.get("etag")).toBe(`"${HASH}"`);
    expect(r.headers.get("cache-control")).toMatch(/immutable/);
    for (const inm of [`"${HASH}"`, `W/"${HASH}"`, `"0xother", "${HASH}"`, "*"]) {
      const n = await a.request("/api/v1/benchmarks/s/award-evidence", { headers: { "if-none-match": inm } });
      expect(n.status, inm).toBe(304);
      expect(await n.text()).toBe("");
      expect(n.headers.get("etag")).toBe(`"${HASH}"`);
    }
    const stale = await a.request("/api/v1/benchmarks/s/award-evidence", {
      headers: { "if-none-match": '"0xold"' },
    });
    expect(stale.status).toBe(200);
    const head = await a.request("/api/v1/benchmarks/s/award-evidence", { method: "HEAD" });
    expect(head.status).toBe(200);
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
