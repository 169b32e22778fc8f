/**
 * Reading a pack from an http(s) URL (the evidence door): the bytes as served are
 * verified; a 404 "not yet" answer is an I/O error that quotes the door's reason.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { VerifierNetworkError, verifyPack } from "../src/index.js";
import { packBytes } from "./helpers.js";

let server: Server;
let base: string;
/** A URL nothing listens on (a port bound, then closed). */
let closed: string;

beforeAll(async () => {
  const gone = createServer();
  await new Promise<void>((resolve) => gone.listen(0, "127.0.0.1", resolve));
  closed = `http://127.0.0.1:${(gone.address() as AddressInfo).port}/pack.json`;
  await new Promise<void>((resolve) => gone.close(() => resolve()));
  const small = packBytes("small");
  server = createServer((req, res) => {
    res.setHeader("content-type", "application/json");
    if (req.url === "/api/v1/benchmarks/vector-small/award-evidence") res.end(small);
    else if (req.url === "/loop" || req.url === "/to-file" || req.url === "/to-closed") {
      res.statusCode = 302;
      const to = { "/loop": "/loop", "/to-file": "file:///etc/passwd", "/to-closed": closed }[req.url]!;
      res.setHeader("location", to);
      res.end();
    } else if (req.url === "/cut") {
      // a body cut short: the length promised, half of it sent, the connection destroyed
      res.setHeader("content-length", "1000");
      res.write("{".repeat(500));
      setTimeout(() => res.destroy(), 50);
    } else {
      res.statusCode = 404;
      res.end(JSON.stringify({ reason: "not_awarded", message: "the prize is not awarded yet" }));
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => {
  server.close();
});

describe("a pack served over http", () => {
  it("verifies the bytes as served", async () => {
    const r = await verifyPack({ source: `${base}/api/v1/benchmarks/vector-small/award-evidence` });
    expect(r.policy_met).toBe(true);
    expect(r.observed.pack).toBe(`url ${base}/api/v1/benchmarks/vector-small/award-evidence`);
  });

  it("reports the door's 404 reason as an I/O error", async () => {
    const p = verifyPack({ source: `${base}/api/v1/benchmarks/other/award-evidence` });
    await expect(p).rejects.toThrow(VerifierNetworkError);
    await expect(verifyPack({ source: `${base}/api/v1/benchmarks/other/award-evidence` })).rejects.toThrow(
      /http 404: not_awarded: the prize is not awarded yet$/,
    );
  });

  it("refuses a document over the size limit before parsing it", async () => {
    await expect(
      verifyPack({
        source: `${base}/api/v1/benchmarks/vector-small/award-evidence`,
        limits: { maxBytes: 1000 },
      }),
    ).rejects.toThrow(/the pack is \d+ bytes, more than the limit of 1000 bytes/);
  });
});

// probe24: a failed redirect, or a refused connection, said only "fetch failed"
describe("a pack URL that cannot be fetched names the URL and the cause", () => {
  it.each([
    ["/loop", "redirect count exceeded"],
    ["/to-file", "URL scheme must be a HTTP(S) scheme"],
  ])("%s: cannot fetch: fetch failed: %s", async (path, cause) => {
    await expect(verifyPack({ source: `${base}${path}` })).rejects.toThrow(
      `url ${base}${path}: cannot fetch: fetch failed: ${cause}`,
    );
  });

  it("a body cut short names its cause (probe25 B-F9: 'terminated' alone)", async () => {
    await expect(verifyPack({ source: `${base}/cut` })).rejects.toThrow(/terminated: other side closed/);
  });

  it("a redirect to a closed port, and a closed port: connection refused", async () => {
    await expect(verifyPack({ source: `${base}/to-closed` })).rejects.toThrow(
      new RegExp(
        `^url ${base}/to-closed: cannot fetch: fetch failed: connect ECONNREFUSED 127\\.0\\.0\\.1:\\d+$`,
      ),
    );
    await expect(verifyPack({ source: closed })).rejects.toThrow(
      new RegExp(`^url ${closed}: cannot fetch: fetch failed: connect ECONNREFUSED`),
    );
  });
});
