/**
 * Large REST answers to small requests count by their size (issue 13 re-probe, the amplification
 * class: a 10,000-row board page or every run's task scores for a tiny GET): a GET's 200 takes one
 * more token of the caller's request bucket per full `answerBytesPerToken` bytes; past the bucket it
 * is 429 naming the limit (`answer_bytes`), and small answers still pass with what is left.
 */
import { afterEach, describe, expect, it } from "vitest";
import type { Limits } from "../src/index.js";
import { call, startLive, type Live } from "./helpers.js";

const lives: Live[] = [];
afterEach(async () => {
  await Promise.all(lives.splice(0).map((l) => l.stop()));
});
async function live(limits: Partial<Limits>): Promise<Live> {
  const l = await startLive({ limits: { ratePerSecond: 0.001, ...limits } });
  lives.push(l);
  return l;
}

/**
 * The tokens one GET of the OpenAPI document takes at 4096 bytes a token (its request's and one per full
 * 4096 bytes), measured on a server with room to spare: the document grows with the routes, so the
 * buckets below are sized from it (two answers and two more tokens).
 */
async function openapiTokens(): Promise<number> {
  const roomy = await live({ rateBurst: 1_000, answerBytesPerToken: 4096 });
  const doc = await call(roomy.url, "GET", "/api/v1/openapi.json");
  expect(doc.status).toBe(200);
  const perAnswer = 1 + Math.floor(Buffer.byteLength(doc.text) / 4096);
  expect(perAnswer).toBeGreaterThanOrEqual(9); // the document is large: 9+ tokens
  return perAnswer;
}

describe("REST answers are charged by their size", () => {
  it("a large answer takes one token per full answerBytesPerToken bytes: the third is 429 naming answer_bytes", async () => {
    const perAnswer = await openapiTokens();
    const l = await live({ rateBurst: 2 * perAnswer + 2, answerBytesPerToken: 4096 });
    expect((await call(l.url, "GET", "/api/v1/openapi.json")).status).toBe(200);
    expect((await call(l.url, "GET", "/api/v1/openapi.json")).status).toBe(200);
    const third = await call(l.url, "GET", "/api/v1/openapi.json");
    expect(third.status).toBe(429);
    expect(Number(third.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect(third.json.error).toMatchObject({ code: "rate_limited", details: { limit: "answer_bytes" } });
    // the refused answer took only its request token: a small answer still passes
    expect((await call(l.url, "GET", "/api/v1/benchmarks")).status).toBe(200);
  });

  it("an answer larger than the whole bucket is still served from a full bucket", async () => {
    const l = await live({ rateBurst: 3, answerBytesPerToken: 1024 });
    expect((await call(l.url, "GET", "/api/v1/openapi.json")).status).toBe(200);
    expect((await call(l.url, "GET", "/api/v1/openapi.json")).status).toBe(429);
  });

  it("a HEAD costs what its GET costs: the handler builds the same answer (probe16 A-F10)", async () => {
    const perAnswer = await openapiTokens();
    const l = await live({ rateBurst: 2 * perAnswer + 2, answerBytesPerToken: 4096 });
    // two HEADs of the large document take the bucket a third GET would need
    for (let i = 0; i < 2; i++) expect((await call(l.url, "HEAD", "/api/v1/openapi.json")).status).toBe(200);
    const third = await call(l.url, "HEAD", "/api/v1/openapi.json");
    expect(third.status).toBe(429);
    expect(Number(third.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    const get = await call(l.url, "GET", "/api/v1/openapi.json");
    expect(get.status).toBe(429);
    expect(get.json.error).toMatchObject({ code: "rate_limited", details: { limit: "answer_bytes" } });
  });
});
