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

beforeAll(async () => {
  const small = packBytes("small");
  server = createServer((req, res) => {
    res.setHeader("content-type", "application/json");
    if (req.url === "/api/v1/benchmarks/vector-small/award-evidence") res.end(small);
    else {
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
