/** The typed client against a live server: the competitor walk and refusals as ApiError. */
import { ApiError, BenchBountyClient } from "@bench-bounty/client";
import { beforeAll, describe, expect, it } from "vitest";
import { CITIES_PUBLISH, citiesAnswer, citiesDataset, publishCities, useLive } from "./helpers.js";

const live = useLive();
let slug: string;
beforeAll(async () => {
  slug = (await publishCities(live.url, 6, "client")).slug;
});

describe("@bench-bounty/client", () => {
  it("walks register, detail, start, submit, finalize, runs/mine, leaderboard, door", async () => {
    const anon = new BenchBountyClient({ baseUrl: live.url + "/" });
    const reg = await anon.register({ name: "client-agent" });
    const me = anon.withKey(reg.api_key);
    expect((await me.me()).account_id).toBe(reg.account.account_id);
    expect((await anon.benchmark(slug)).how_to_compete).toContain(slug);
    const { run, tasks } = await me.startRun(slug);
    const sub = await me.submit(
      run.id,
      tasks.map((t) => ({ ordinal: t.ordinal, answer_text: citiesAnswer(t.prompt) })),
    );
    expect(sub.answered).toBe(tasks.length);
    const fin = await me.finalize(run.id);
    expect(fin.score_public).toBe("1.0000");
    expect((await me.runsMine()).runs.map((r) => r.run_id)).toEqual([run.id]);
    expect((await anon.leaderboard(slug)).rows[0]!.run_id).toBe(run.id);
    // pages: past the one row, both the board and the entries are empty and say where they sit
    expect(await anon.leaderboard(slug, { offset: 1, limit: 5 })).toMatchObject({
      rows: [],
      offset: 1,
      limit: 5,
    });
    expect(await anon.entries(slug, { offset: 1 })).toMatchObject({ entries: [], offset: 1, total_rows: 1 });
    expect(await anon.awardEvidence(slug)).toMatchObject({ kind: "unavailable", reason: "no_commitment" });
  });
  // probe36 g36's note: the publish answer's type lacked duplicate_prompts (the author's groups)
  it("publishes as the dataset's owner: the answer carries the disclosure and the duplicate-prompt groups", async () => {
    const anon = new BenchBountyClient({ baseUrl: live.url });
    const author = anon.withKey((await anon.register({ name: "client-author" })).api_key);
    const ds = await author.createDataset(citiesDataset(4, "client-pub"));
    const stranger = anon.withKey((await anon.register({ name: "client-stranger" })).api_key);
    await expect(stranger.publish(ds.dataset_id, CITIES_PUBLISH)).rejects.toMatchObject({ status: 403 });
    const pub = await author.publish(ds.dataset_id, CITIES_PUBLISH);
    expect(pub.dataset_id).toBe(ds.dataset_id);
    expect(pub.disclosure).toMatch(/prompt_hash/);
    expect(pub.duplicate_prompts).toMatchObject({
      groups: 0,
      rows: 0,
      examples: [],
      rounded_public_count: 2,
    });
    expect(pub.public_count + pub.private_count).toBe(4);
  });
  // keys29 item 1: the client had no key methods
  it("issues a key and revokes the old one by its prefix; the last active key and a whole key are refused", async () => {
    const anon = new BenchBountyClient({ baseUrl: live.url });
    const reg = await anon.register({ name: "client-keys" });
    const old = anon.withKey(reg.api_key);
    const issued = await old.issueKey();
    expect(issued.api_key).toMatch(/^bbk_/);
    expect(issued.account.keys.map((k) => k.key_prefix).sort()).toEqual(
      [reg.key_prefix, issued.key_prefix].sort(),
    );
    const fresh = anon.withKey(issued.api_key);
    await expect(fresh.revokeKey(issued.api_key)).rejects.toMatchObject({
      status: 422,
      code: "invalid_request",
      details: { field: "key_prefix" },
    });
    const after = await fresh.revokeKey(reg.key_prefix);
    expect(after.keys.find((k) => k.key_prefix === reg.key_prefix)?.revoked_at).toBeTypeOf("string");
    await expect(old.me()).rejects.toBeInstanceOf(ApiError);
    await expect(fresh.revokeKey(issued.key_prefix)).rejects.toMatchObject({
      status: 409,
      code: "last_active_key",
    });
    expect((await fresh.me()).account_id).toBe(reg.account.account_id);
  });
  it("throws ApiError with the server's code, status and details", async () => {
    const anon = new BenchBountyClient({ baseUrl: live.url });
    const e1 = await anon.startRun(slug).catch((e: unknown) => e);
    expect(e1).toBeInstanceOf(ApiError);
    expect(e1).toMatchObject({ status: 401, code: "unauthenticated" });
    const e2 = await anon
      .withKey("bbk_nope")
      .me()
      .catch((e: unknown) => e);
    expect(e2).toMatchObject({ status: 403, code: "forbidden" });
    const e3 = await anon.benchmark("no-such").catch((e: unknown) => e);
    expect(e3).toMatchObject({ status: 404, code: "unknown_benchmark" });
    // the service's own routes: before a pack, and off-chain
    const e4 = await anon.verification(slug).catch((e: unknown) => e);
    expect(e4).toMatchObject({ status: 404, code: "verification_unavailable" });
    const e5 = await anon.verificationReport(slug).catch((e: unknown) => e);
    expect(e5).toMatchObject({ status: 404, code: "verification_unavailable" });
    const key = (await anon.register({ name: "client-relayer" })).api_key;
    const e6 = await anon
      .withKey(key)
      .relayClaim(slug, {
        account: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8",
        to: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8",
        deadline: 4_000_000_000n,
        signature: "0x" + "11".repeat(65),
      })
      .catch((e: unknown) => e);
    expect(e6).toMatchObject({ status: 503, code: "no_chain" });
    expect((await anon.entries(slug)).schema).toBe("gaos.leaderboard-entry.v2");
    const dead = new BenchBountyClient({ baseUrl: "http://127.0.0.1:1" });
    await expect(dead.listBenchmarks()).rejects.toMatchObject({ status: 0, code: "network_error" });
  });
});

describe("@bench-bounty/client base URL secrets", () => {
  it("names only the origin in a transport error: never the path or query", async () => {
    const dead = new BenchBountyClient({ baseUrl: "http://127.0.0.1:1/tok-path?key=k3y" });
    const e = (await dead.listBenchmarks().catch((x: unknown) => x)) as ApiError;
    expect(e).toMatchObject({ status: 0, code: "network_error" });
    expect(e.message).toContain("GET http://127.0.0.1:1/api/v1/benchmarks");
    for (const secret of ["tok-path", "k3y"]) expect(e.message).not.toContain(secret);
  });

  it("refuses a base URL's userinfo (the server answers Basic auth 401: probe14 D2-F17); the key goes as X-API-Key to the base's path", async () => {
    const seen: { url: string; headers: Record<string, string> }[] = [];
    const fake: typeof fetch = async (input, init) => {
      seen.push({ url: String(input), headers: init?.headers as Record<string, string> });
      return new Response(JSON.stringify({ benchmarks: [] }), { status: 200 });
    };
    expect(
      () =>
        new BenchBountyClient({ baseUrl: "https://ops:s3cret-pw@proxy.test/bb/", apiKey: "k", fetch: fake }),
    ).toThrow(/^baseUrl must not carry userinfo \(https:\/\/proxy\.test: /);
    const c = new BenchBountyClient({ baseUrl: "https://proxy.test/bb/", apiKey: "k", fetch: fake });
    expect(await c.listBenchmarks()).toEqual({ benchmarks: [] });
    expect(seen[0]!.url).toBe("https://proxy.test/bb/api/v1/benchmarks?offset=0&limit=1000");
    expect(seen[0]!.headers.authorization).toBeUndefined();
    expect(seen[0]!.headers["x-api-key"]).toBe("k");
  });
});
