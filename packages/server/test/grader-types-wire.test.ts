/**
 * probe36 A-F1: the pack's fixed `grader_types` block (SPEC 8) as the service serves it: its numeric
 * examples' gold (`1e-07`, `9007199254740993`) became `{lexeme, value}` objects (twice nested in the publish
 * answer) and a decimal string. Every answer that carries it now carries the block's exact text.
 */
import { canonicalJsonString, GRADER_TYPES, parseJson, type JsonObject } from "@bench-bounty/evidence";
import { describe, expect, it } from "vitest";
import { call, citiesDataset, CITIES_PUBLISH, register, useLive } from "./helpers.js";

const live = useLive();

/** The `grader_types` of a raw JSON answer, in canonical JSON (numbers as written). */
function servedBlock(text: string): string {
  return canonicalJsonString((parseJson(text) as JsonObject).grader_types);
}

describe("grader_types on the wire (probe36 A-F1)", () => {
  it("the formats, the publish answer and the detail carry the pack's block exactly", async () => {
    const u = live.url;
    const exact = canonicalJsonString(GRADER_TYPES);
    expect(exact).toContain('{"answer":"1e-7","credit":"0/1","gold":{"value":1e-07}}');
    expect(exact).toContain('{"answer":"9007199254740992","credit":"0/1","gold":{"value":9007199254740993}}');

    const formats = await call(u, "GET", "/api/v1/datasets/formats");
    expect(formats.status).toBe(200);
    expect(servedBlock(formats.text)).toBe(exact);

    const author = await register(u, "author-gt");
    const ds = await call(u, "POST", "/api/v1/datasets", { key: author.key, body: citiesDataset(4, "gt") });
    expect(ds.status).toBe(201);
    const published = await call(u, "POST", `/api/v1/datasets/${ds.json.dataset_id}/benchmark`, {
      key: author.key,
      body: CITIES_PUBLISH,
    });
    expect(published.status).toBe(201);
    expect(servedBlock(published.text)).toBe(exact);

    const detail = await call(u, "GET", `/api/v1/benchmarks/${published.json.slug}`);
    expect(detail.status).toBe(200);
    expect(servedBlock(detail.text)).toBe(exact);
  });
});
