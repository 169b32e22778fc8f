/**
 * probe D1-F4: a 304 carried `Content-Type: text/plain; charset=UTF-8` (the node adapter adds it to a
 * response without one) while the 200 of the same resource is JSON; a cache revalidating with the 304
 * updates its stored headers from it (RFC 9111 4.3.4) and then serves the immutable pack as text. A
 * 304 now carries the 200's Content-Type, on every cached read served over HTTP: the evidence door,
 * the leaderboard (the anonymous fast path and the chain) and the OpenAPI document.
 */
import type { AwardEvidenceReason } from "@bench-bounty/platform";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { serveApp, type Domain, type ListeningServer } from "../src/index.js";
import { call, doorOf, publishCities, register, useLive } from "./helpers.js";

const PACK = new TextEncoder().encode('{"benchmark":{"slug":"s"},"pack_hash":"0xabc"}');
const HASH = `0x${"ab".repeat(32)}` as const;

/** GET `path` (200), then again with its ETag: both answers' status and Content-Type. */
async function revalidate(base: string, path: string, key?: string) {
  const first = await call(base, "GET", path, { key: key ?? null });
  const etag = first.headers.get("etag");
  expect(etag, path).toBeTruthy();
  const again = await call(base, "GET", path, { key: key ?? null, headers: { "if-none-match": etag! } });
  const head = await fetch(base + path, {
    method: "HEAD",
    headers: { "if-none-match": etag!, ...(key ? { "x-api-key": key } : {}) },
  });
  return { first, again, head };
}

describe("304 answers carry the 200's Content-Type (probe D1-F4)", () => {
  let door: ListeningServer;
  let bytesReads: () => number = () => 0;
  beforeAll(async () => {
    const fake = doorOf((slug) =>
      slug === "s"
        ? { kind: "pack", bytes: PACK, pack_hash: HASH, pack_size: PACK.byteLength }
        : { kind: "unavailable", reason: "not_awarded" as AwardEvidenceReason, message: "not yet" },
    );
    bytesReads = () => fake.bytesReads + fake.chunkReads; // whole, or streamed (probe26 A-F2)
    door = await serveApp({ domain: fake.domain as Domain, port: 0, host: "127.0.0.1" });
  });
  afterAll(async () => {
    await door.close();
  });
  const live = useLive();

  it("the evidence door: 304 (GET and HEAD) with the pack's application/json, never text/plain", async () => {
    const { first, again, head } = await revalidate(door.url, "/api/v1/benchmarks/s/award-evidence");
    expect(first.status).toBe(200);
    expect(first.headers.get("content-type")).toBe("application/json");
    expect(again.status).toBe(304);
    expect(again.text).toBe("");
    expect(again.headers.get("content-type")).toBe("application/json");
    expect(head.status).toBe(304);
    expect(head.headers.get("content-type")).toBe("application/json");
  });

  it("the evidence door's HEAD carries the pack's Content-Length, as its GET does, and reads no bytes (probe24 C-F6)", async () => {
    const readsBefore = bytesReads();
    const get = await fetch(door.url + "/api/v1/benchmarks/s/award-evidence");
    expect(get.headers.get("content-length")).toBe(String(PACK.byteLength));
    expect(new Uint8Array(await get.arrayBuffer())).toEqual(PACK); // streamed over HTTP, the same bytes
    const head = await fetch(door.url + "/api/v1/benchmarks/s/award-evidence", { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(head.headers.get("content-length")).toBe(String(PACK.byteLength));
    expect(head.headers.get("content-type")).toBe("application/json");
    expect(head.headers.get("etag")).toBe(`"${HASH}"`);
    expect(await head.text()).toBe("");
    expect(bytesReads()).toBe(readsBefore + 1); // the GET only
  });

  it("the OpenAPI document and the leaderboard (anonymous fast path and keyed chain): 304 with the 200's type", async () => {
    const { slug } = await publishCities(live.url, 4, "nm");
    const me = await register(live.url, "nm-reader");
    const reads: [string, string | undefined][] = [
      ["/api/v1/openapi.json", undefined],
      [`/api/v1/benchmarks/${slug}/leaderboard`, undefined],
      [`/api/v1/benchmarks/${slug}/leaderboard`, me.key],
    ];
    for (const [path, key] of reads) {
      const { first, again, head } = await revalidate(live.url, path, key);
      const type = first.headers.get("content-type");
      expect(type, path).toMatch(/^application\/json/);
      expect(again.status, path).toBe(304);
      expect(again.headers.get("content-type"), path).toBe(type);
      expect(head.status, path).toBe(304);
      expect(head.headers.get("content-type"), path).toBe(type);
    }
  });
});
