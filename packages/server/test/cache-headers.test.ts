/**
 * probe24 A-F1: an answer that depends on the caller's key (the author's view of an open benchmark,
 * SPEC 6.1: private entries, task scores, a buyer_only board) carried an ETag but neither
 * `Cache-Control: private` nor `Vary`, so a shared cache in front of serve could store the author's
 * answer and hand it to a stranger. Every read under /api/* now says `Vary: Authorization, X-API-Key`,
 * and an answer to a request that carried a key is `Cache-Control: private`.
 */
import { describe, expect, it } from "vitest";
import { privateCacheControl } from "../src/app.js";
import { call, publishCities, useLive } from "./helpers.js";

describe("key-dependent reads are never stored by a shared cache (probe24 A-F1)", () => {
  const live = useLive();

  it("keyed reads are private, every read varies on both key headers, 304s included", async () => {
    const { slug, author } = await publishCities(live.url, 4, "cache", {
      leaderboard_visibility: "buyer_only",
    });
    const paths = [
      `/api/v1/benchmarks/${slug}/leaderboard`,
      `/api/v1/benchmarks/${slug}/entries`,
      `/api/v1/benchmarks/${slug}`,
    ];
    for (const path of paths) {
      const keyed = await call(live.url, "GET", path, { key: author.key });
      expect(keyed.status, path).toBe(200);
      expect(keyed.headers.get("cache-control"), path).toBe("private");
      expect(keyed.headers.get("vary"), path).toBe("Authorization, X-API-Key");
      const bearer = await call(live.url, "GET", path, {
        headers: { authorization: `Bearer ${author.key}` },
      });
      expect(bearer.headers.get("cache-control"), path).toBe("private");
      const anonymous = await call(live.url, "GET", path);
      expect(anonymous.status, path).toBe(200);
      expect(anonymous.headers.get("cache-control"), path).toBeNull();
      expect(anonymous.headers.get("vary"), path).toBe("Authorization, X-API-Key");
      const etag = keyed.headers.get("etag");
      if (etag !== null) {
        const again = await call(live.url, "GET", path, {
          key: author.key,
          headers: { "if-none-match": etag },
        });
        expect(again.status, path).toBe(304);
        expect(again.headers.get("cache-control"), path).toBe("private");
        expect(again.headers.get("vary"), path).toBe("Authorization, X-API-Key");
      }
    }
  });

  it("the anonymous leaderboard fast path varies on the key headers too, its 304 as well", async () => {
    const { slug } = await publishCities(live.url, 4, "cache-fast");
    const path = `/api/v1/benchmarks/${slug}/leaderboard`;
    const first = await call(live.url, "GET", path);
    expect(first.status).toBe(200);
    expect(first.headers.get("vary")).toBe("Authorization, X-API-Key");
    const again = await call(live.url, "GET", path, {
      headers: { "if-none-match": first.headers.get("etag")! },
    });
    expect(again.status).toBe(304);
    expect(again.headers.get("vary")).toBe("Authorization, X-API-Key");
  });
});

describe("a key holder's answer keeps the route's own caching directives (probe25 A-F6)", () => {
  it("private takes the place of public; no-cache, max-age and immutable are kept", () => {
    expect(privateCacheControl(null)).toBe("private");
    expect(privateCacheControl("no-cache")).toBe("private, no-cache");
    expect(privateCacheControl("public, max-age=31536000, immutable")).toBe(
      "private, max-age=31536000, immutable",
    );
    expect(privateCacheControl("Private")).toBe("private");
  });
});
