/**
 * Issue 13, probe9 Q3 against a live indexer (PGlite): Ponder answers `/metrics`, `/health`,
 * `/ready` and `/status` itself, before our app, so our query guard never sees them. The pnpm
 * patch of ponder (`patches/ponder@0.16.10.patch`) refuses any query parameter on those four paths
 * with our 400 `invalid_parameter` body naming the parameter; without one (a bare `?` is no query,
 * as on our routes) they answer as before. Requests go through `node:http` with the raw path: `fetch` drops a bare `?`.
 */
import { startDevChain, type DevChain } from "@bench-bounty/devchain";
import { request, type IncomingHttpHeaders } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startIndexer, type RunningIndexer } from "../testing/startIndexer.js";

interface RawAnswer {
  status: number;
  type: string;
  text: string;
  headers: IncomingHttpHeaders;
}

/** GET `path` exactly as written (no URL normalization). */
function rawGet(port: number, path: string): Promise<RawAnswer> {
  return rawRequest(port, "GET", path);
}

/** `method` `path` exactly as written, with `headers`. */
function rawRequest(
  port: number,
  method: string,
  path: string,
  headers: Record<string, string> = {},
): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const req = request({ host: "127.0.0.1", port, path, method, headers }, (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (d: string) => (text += d));
      res.on("end", () =>
        resolve({
          status: res.statusCode ?? 0,
          type: String(res.headers["content-type"] ?? ""),
          text,
          headers: res.headers,
        }),
      );
    });
    req.on("error", reject);
    req.end();
  });
}

describe("Ponder's own routes refuse query parameters", () => {
  let dc: DevChain;
  let ix: RunningIndexer;

  beforeAll(async () => {
    dc = await startDevChain();
    ix = await startIndexer({ chain: dc });
  });
  afterAll(async () => {
    await ix?.stop();
    await dc?.stop();
  });

  it("answers 400 invalid_parameter naming the parameter on /status, /health, /ready, /metrics", async () => {
    const cases: [string, string][] = [
      ["/status?x=1", "x"],
      ["/health?x=1", "x"],
      ["/ready?x=1", "x"],
      ["/metrics?x=1", "x"],
      ["/status?=", ""],
      ["/health?&x=1", ""],
      ["/ready?a=1&a=2", "a"],
      ["/metrics?%78y=1", "xy"],
      ["/status?verbose", "verbose"],
    ];
    for (const [path, parameter] of cases) {
      const res = await rawGet(ix.port, path);
      expect(res.status, path).toBe(400);
      expect(res.type, path).toMatch(/^application\/json/);
      const body = JSON.parse(res.text) as { error: { code: string; parameter: string; message: string } };
      expect(body.error, path).toMatchObject({ code: "invalid_parameter", parameter });
      const route = path.split("?")[0]!;
      expect(body.error.message, path).toContain(`${route} takes no query parameters`);
      if (parameter !== "") expect(body.error.message, path).toContain(`"${parameter}"`);
      expect(Object.keys(body.error).sort(), path).toEqual(["code", "message", "parameter"]);
    }
    // The same shape and code as our own routes.
    const ours = JSON.parse((await rawGet(ix.port, "/awards?x=1")).text) as { error: object };
    expect(ours.error).toMatchObject({ code: "invalid_parameter", parameter: "x" });
  });

  it("answers as before without a query string", async () => {
    const status = await rawGet(ix.port, "/status");
    expect(status.status).toBe(200);
    const bare = await rawGet(ix.port, "/status?"); // no query, as on our own routes (`/awards?`)
    expect([bare.status, bare.text]).toEqual([200, status.text]);
    expect((await rawGet(ix.port, "/awards?")).status).toBe(200);
    expect(status.type).toMatch(/^application\/json/);
    const chains = Object.values(JSON.parse(status.text) as Record<string, { id: number }>);
    expect(chains.map((c) => c.id)).toEqual([dc.chainId]);
    expect((await rawGet(ix.port, "/health")).status).toBe(200);
    expect([200, 503]).toContain((await rawGet(ix.port, "/ready")).status);
    const metrics = await rawGet(ix.port, "/metrics");
    expect(metrics.status).toBe(200);
    expect(metrics.text).toContain("ponder_");
    // Other paths are not touched by the patch: our app still answers them.
    expect((await rawGet(ix.port, "/anomalies")).status).toBe(200);
  });

  it("answers OPTIONS only where a route is, listing its methods, with the query check (probe10 R6)", async () => {
    const preflight = { origin: "http://example.test", "access-control-request-method": "GET" };
    // no route: 404 JSON, as GET
    for (const path of ["/nosuch", "/sql/live", "/bounties/1/x", "/graphql/x"]) {
      const res = await rawRequest(ix.port, "OPTIONS", path, preflight);
      expect(res.status, path).toBe(404);
      expect((JSON.parse(res.text) as { error: { code: string } }).error.code, path).toBe("no_route");
      expect(res.headers["access-control-allow-methods"], path).toBeUndefined();
    }
    // a query parameter the route does not take: 400 naming it, Ponder's paths and ours
    for (const [path, parameter] of [
      ["/status?x=1", "x"],
      ["/metrics?=", ""],
      ["/awards?x=1", "x"],
      ["/graphql?query=1", "query"],
      ["/bounties/1?limit=5", "limit"],
      ["/sql/db?sql=1&sql=2", "sql"],
    ] as const) {
      const res = await rawRequest(ix.port, "OPTIONS", path, preflight);
      expect(res.status, path).toBe(400);
      expect(JSON.parse(res.text), path).toMatchObject({ error: { code: "invalid_parameter", parameter } });
    }
    // a route: 204 with its own methods only
    for (const [path, methods] of [
      ["/status", "GET,HEAD"],
      ["/health", "GET,HEAD"],
      ["/status?", "GET,HEAD"],
      ["/awards", "GET,HEAD"],
      ["/awards?winner=0x0000000000000000000000000000000000000001&limit=5", "GET,HEAD"],
      ["/bounties/7", "GET,HEAD"],
      ["/sql/db", "GET,HEAD"],
      ["/graphql", "GET,HEAD,POST"],
      ["/", "GET,HEAD,POST"],
    ] as const) {
      const res = await rawRequest(ix.port, "OPTIONS", path, {
        ...preflight,
        "access-control-request-headers": "content-type, x-foo",
      });
      expect(res.status, path).toBe(204);
      expect(res.headers["access-control-allow-methods"], path).toBe(methods);
      expect(res.headers["access-control-allow-origin"], path).toBe("*");
      expect(res.headers["access-control-allow-headers"], path).toBe("content-type,x-foo");
      expect(res.headers["access-control-max-age"], path).toBe("86400");
      // and Allow, Ponder's own paths too (probe31 B-F7 rest: the patch answered them without it)
      expect(res.headers.allow, path).toBe(`${methods},OPTIONS`);
    }
    // other methods keep their CORS header
    expect((await rawGet(ix.port, "/awards")).headers["access-control-allow-origin"]).toBe("*");
    expect((await rawGet(ix.port, "/status")).headers["access-control-allow-origin"]).toBe("*");
  });

  // probe31 B-F7: POST /status was the catch-all 404 `no_route`, as if the path were unknown
  // probe32 B-F8: the 405's Allow said GET, while the same route answers HEAD and its OPTIONS lists
  // GET,HEAD,OPTIONS (RFC 9110 15.5.6: a 405's Allow lists the methods the resource supports)
  it("answers another method on Ponder's four paths 405 with the Allow its OPTIONS gives, as on the app's routes", async () => {
    for (const [path, allow] of [
      ["/status", "GET,HEAD,OPTIONS"],
      ["/metrics", "GET,HEAD,OPTIONS"],
      ["/health", "GET,HEAD,OPTIONS"],
      ["/ready", "GET,HEAD,OPTIONS"],
      ["/awards", "GET,HEAD,OPTIONS"],
      ["/graphql", "GET,HEAD,POST,OPTIONS"],
    ] as const)
      for (const method of ["PUT", "DELETE", "PATCH", ...(path === "/graphql" ? [] : ["POST"])]) {
        const res = await rawRequest(ix.port, method, path);
        expect(res.status, `${method} ${path}`).toBe(405);
        expect(res.headers.allow, `${method} ${path}`).toBe(allow);
        expect((await rawRequest(ix.port, "OPTIONS", path)).headers.allow, `OPTIONS ${path}`).toBe(allow);
        expect((await rawRequest(ix.port, "HEAD", path)).status, `HEAD ${path}`).not.toBe(405);
        expect(JSON.parse(res.text), `${method} ${path}`).toEqual({
          error: {
            code: "method_not_allowed",
            message: `${method} is not allowed on ${path} (allowed: ${allow})`,
          },
        });
      }
  });

  // probe33 B-F9: HEAD /graphql answered 200 with graphql-yoga's method refusal's headers (`allow: GET, POST`,
  // JSON, 107 bytes), where GET answers GraphiQL's HTML (RFC 9110 9.3.2: HEAD answers GET's header fields)
  it("answers HEAD /graphql and HEAD / with GET's status and header fields, no body", async () => {
    for (const path of ["/graphql", "/"]) {
      const get = await rawRequest(ix.port, "GET", path);
      const head = await rawRequest(ix.port, "HEAD", path);
      expect(get.status, path).toBe(200);
      expect(get.type, path).toMatch(/^text\/html/);
      expect([head.status, head.type, head.text], path).toEqual([get.status, get.type, ""]);
      expect(head.headers.allow, path).toBeUndefined();
      expect(head.headers["content-length"], path).toBe(get.headers["content-length"]);
    }
  });

  it("refuses any query parameter on /graphql, GET (GraphiQL) or POST (probe10 R7)", async () => {
    for (const [method, path, parameter] of [
      ["GET", "/graphql?x=1", "x"],
      ["GET", "/graphql?query=%7B__typename%7D", "query"],
      ["GET", "/graphql?=", ""],
      ["HEAD", "/graphql?x=1", "x"],
      ["GET", "/?x=1", "x"],
      ["POST", "/graphql?x=1", "x"],
    ] as const) {
      const res = await rawRequest(ix.port, method, path, { "content-type": "application/json" });
      expect(res.status, `${method} ${path}`).toBe(400);
      if (method === "HEAD") continue;
      const body = JSON.parse(res.text) as { error: { code: string; parameter: string; message: string } };
      expect(body.error, path).toMatchObject({ code: "invalid_parameter", parameter });
      expect(body.error.message, path).toContain("takes no query parameters: send a query as a POST body");
    }
    // without a query: the GraphiQL page, and POST queries as before
    const page = await rawGet(ix.port, "/graphql");
    expect(page.status).toBe(200);
    expect(page.type).toMatch(/^text\/html/);
    expect((await rawGet(ix.port, "/graphql?")).status).toBe(200);
    const res = await fetch(`${ix.url}/graphql`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ query: "{ __typename }" }),
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ data: { __typename: "Query" } });
  });
});
