/**
 * probeD2 F2 and F3: a base URL that is not a URL is refused naming the option, never echoing its
 * userinfo or query; a route is joined after the base's path and before its query (it was appended
 * after the query, or into the fragment); a 2xx answer that is not JSON is an ApiError naming the
 * route and the origin, never a SyntaxError.
 */
import { describe, expect, it } from "vitest";
import { ApiError, BenchBountyClient } from "../src/index.js";

/** A fetch that records each URL and answers `body` with `status`. */
function recorder(body: string, status = 200): { fetch: typeof fetch; urls: string[] } {
  const urls: string[] = [];
  return {
    urls,
    fetch: async (input) => {
      urls.push(String(input));
      return new Response(body, { status });
    },
  };
}

describe("a malformed base URL (probeD2 F2)", () => {
  it.each([
    "http://alice:S3CRETPW@127.0.0.1:99999",
    "https://alice:S3CRETPW@exa mple.com",
    "127.0.0.1:18299/?key=QSECRET",
    "ftp://alice:S3CRETPW@host/?key=QSECRET",
    "",
  ])("%j is refused by the constructor naming baseUrl, never echoing it", (baseUrl) => {
    let error: unknown;
    try {
      new BenchBountyClient({ baseUrl });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 0, code: "invalid_base_url", details: { field: "baseUrl" } });
    expect((error as Error).message).toMatch(/^baseUrl must be an absolute http/);
    expect((error as Error).message).not.toMatch(/alice|S3CRETPW|QSECRET|99999|mple/);
  });

  it("a transport failure names the origin and the route only", async () => {
    const dead = new BenchBountyClient({ baseUrl: "http://127.0.0.1:1/S3CRETPW/?key=QSECRET" });
    const e = (await dead.me().catch((x: unknown) => x)) as ApiError;
    expect(e).toMatchObject({ status: 0, code: "network_error" });
    expect(e.message.startsWith("GET http://127.0.0.1:1/api/v1/accounts/me: ")).toBe(true);
    expect(e.message).not.toMatch(/alice|S3CRETPW|QSECRET/);
  });
});

describe("a base URL with userinfo (probe14 D2-F17)", () => {
  // fetch sent it as Authorization: Basic, which bench-bounty serve answers 401 (its key is X-API-Key
  // or Bearer): refused at once, as `run --server` refuses it, naming the part and never its value
  it.each([
    "http://alice:S3CRETPW@127.0.0.1:19751/",
    "https://alice@bench.test/bb/?key=QSECRET",
    "http://:S3CRETPW@bench.test",
  ])("%j is refused by the constructor naming baseUrl's userinfo, never echoing it", (baseUrl) => {
    const r = recorder("{}");
    let error: unknown;
    try {
      new BenchBountyClient({ baseUrl, apiKey: "bbk_K", fetch: r.fetch });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({
      status: 0,
      code: "invalid_base_url",
      details: { field: "baseUrl", part: "userinfo" },
    });
    expect((error as Error).message).toMatch(/^baseUrl must not carry userinfo \(https?:\/\/[a-z0-9.:]+: /);
    expect((error as Error).message).toContain("the API key is apiKey");
    expect((error as Error).message).not.toMatch(/alice|S3CRETPW|QSECRET|\/bb/);
    expect(r.urls).toEqual([]);
  });
});

describe("a base URL with a query or a fragment (probeD2 F3)", () => {
  it.each([
    ["http://127.0.0.1:18201/?token=T", "http://127.0.0.1:18201/api/v1/accounts/me?token=T"],
    ["http://127.0.0.1:18201/base#frag", "http://127.0.0.1:18201/base/api/v1/accounts/me"],
    ["https://proxy.test/bb/?k=1#f", "https://proxy.test/bb/api/v1/accounts/me?k=1"],
    ["http://127.0.0.1:18201", "http://127.0.0.1:18201/api/v1/accounts/me"],
  ])("%s: the route goes after the path, before the query", async (baseUrl, url) => {
    const r = recorder("{}");
    await new BenchBountyClient({ baseUrl, fetch: r.fetch }).me();
    expect(r.urls).toEqual([url]);
  });

  it("a route's own query is kept after the base's", async () => {
    const r = recorder("{}");
    await new BenchBountyClient({ baseUrl: "http://h.test/x?token=T", fetch: r.fetch }).request(
      "GET",
      "/api/v1/benchmarks?limit=5",
    );
    expect(r.urls).toEqual(["http://h.test/x/api/v1/benchmarks?token=T&limit=5"]);
  });
});

describe("a 2xx answer that is not JSON (another server at the base URL)", () => {
  it("is an ApiError invalid_answer naming the route and the origin, not a SyntaxError", async () => {
    const r = recorder("<!doctype html><html>Sign in</html>");
    const c = new BenchBountyClient({
      baseUrl: "http://proxy.test/KEYPATH?token=QSECRET",
      fetch: r.fetch,
    });
    const e = (await c.runTasks("run_1").catch((x: unknown) => x)) as ApiError;
    expect(e).toBeInstanceOf(ApiError);
    expect(e).toMatchObject({ status: 0, code: "invalid_answer", details: { http_status: 200 } });
    expect(e.message).toContain("GET http://proxy.test/api/v1/benchmarks/runs/run_1/tasks: http 200");
    expect(e.message).not.toMatch(/KEYPATH|QSECRET/);
    // JSON null and an empty body are answers
    expect(
      await new BenchBountyClient({ baseUrl: "http://h.test", fetch: recorder("null").fetch }).me(),
    ).toBe(null);
  });
});

describe("redirects, body reads and a malformed key (probeD2 F19, F13, F24)", () => {
  it("a redirect is not followed: the key never reaches the Location's origin", async () => {
    const inits: RequestInit[] = [];
    const fake: typeof fetch = async (_input, init) => {
      inits.push(init!);
      return new Response(null, {
        status: 307,
        headers: { location: "http://evil.test/api/v1/accounts/me" },
      });
    };
    const c = new BenchBountyClient({ baseUrl: "http://h.test", apiKey: "bbk_K", fetch: fake });
    const e = (await c.me().catch((x: unknown) => x)) as ApiError;
    expect(inits.map((i) => i.redirect)).toEqual(["manual"]);
    expect(e).toMatchObject({ status: 307, code: "redirect_refused" });
    expect(e.message).toContain("redirects to http://evil.test: not followed");
  });

  it("a failure while reading the body is an ApiError network_error naming the origin", async () => {
    const fake: typeof fetch = async () =>
      new Response(
        new ReadableStream({
          start(c) {
            c.enqueue(new TextEncoder().encode("{"));
            c.error(new TypeError("terminated"));
          },
        }),
        { status: 200 },
      );
    const e = (await new BenchBountyClient({ baseUrl: "http://h.test/PW/?k=Q", fetch: fake })
      .me()
      .catch((x: unknown) => x)) as ApiError;
    expect(e).toBeInstanceOf(ApiError);
    expect(e).toMatchObject({ status: 0, code: "network_error" });
    expect(e.message).toContain(
      "GET http://h.test/api/v1/accounts/me: reading the answer failed: terminated",
    );
    expect(e.message).not.toMatch(/PW|Q\b/);
  });

  it("a key with a line break is never printed (fetch's message quotes the header value)", async () => {
    const key = "bbk_abcdef123456_SECRET\nPART";
    const e = (await new BenchBountyClient({ baseUrl: "http://127.0.0.1:1", apiKey: key })
      .me()
      .catch((x: unknown) => x)) as ApiError;
    expect(e).toMatchObject({ status: 0, code: "network_error" });
    expect(e.message).not.toMatch(/SECRET|PART/);
    expect(e.message).toContain("the API key holds a character that cannot be sent in a header");
  });
});
