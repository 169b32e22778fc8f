/**
 * probe14 D2-F13: the client read a whole answer, however long: a hostile or broken server at the
 * base URL could make it buffer gigabytes. Every body is now read within a limit (the door's pack
 * within `PACK_LIMITS.maxPackBytes`, a JSON answer within {@link MAX_ANSWER_BYTES}, an error body
 * within {@link MAX_ERROR_BYTES}), and past it the read stops with an ApiError `answer_too_large`
 * naming the route, the origin and the limit. Against a loopback server that never stops sending.
 */
import { createServer, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PACK_LIMITS } from "@bench-bounty/evidence";
import { ApiError, BenchBountyClient, MAX_ANSWER_BYTES, MAX_ERROR_BYTES } from "../src/index.js";

const MiB = 1024 * 1024;
/** What the endless answers send at most (so a client that never stops reading ends). */
const ENDLESS_CAP = 64 * MiB;

/** Writes `{"x":"aaaa...` until the client goes away or {@link ENDLESS_CAP} bytes are sent. */
function endless(res: ServerResponse, status: number): void {
  res.writeHead(status, { "content-type": "application/json" });
  const chunk = Buffer.alloc(64 * 1024, "a");
  let sent = 0;
  res.write('{"x":"');
  const pump = (): void => {
    while (sent < ENDLESS_CAP) {
      sent += chunk.length;
      if (!res.write(chunk)) {
        res.once("drain", pump);
        return;
      }
    }
    res.end('"}');
  };
  res.on("close", () => res.removeAllListeners("drain"));
  pump();
}

let server: Server;
let base: string;

beforeAll(async () => {
  server = createServer((req, res) => {
    const path = (req.url ?? "").split("?")[0]!;
    if (path === "/api/v1/accounts/me") return endless(res, 200);
    if (path === "/api/v1/benchmarks") return endless(res, 500);
    if (path === "/api/v1/benchmarks/big/award-evidence") return endless(res, 200);
    if (path === "/api/v1/benchmarks/nopack/award-evidence") return endless(res, 404);
    if (path === "/api/v1/benchmarks/big/verification/report") return endless(res, 200);
    if (path === "/api/v1/benchmarks/small/award-evidence") {
      res.writeHead(200, { etag: '"0xab"' });
      return res.end(Buffer.alloc(MiB, "p"));
    }
    // a declared length over the default limits, then nothing: refused before reading
    if (path === "/api/v1/benchmarks/declared/award-evidence") {
      res.writeHead(200, { "content-length": String(PACK_LIMITS.maxPackBytes + 1) });
      return res.write("{");
    }
    if (path === "/api/v1/benchmarks/declared") {
      res.writeHead(200, { "content-length": String(MAX_ANSWER_BYTES + 1) });
      return res.write("{");
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(19752, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

/** The ApiError a call fails with. */
async function failure(p: Promise<unknown>): Promise<ApiError> {
  const e = await p.then(
    () => null,
    (x: unknown) => x,
  );
  expect(e).toBeInstanceOf(ApiError);
  return e as ApiError;
}

describe("an answer over the client's limit (probe14 D2-F13)", () => {
  it("a JSON answer that never ends is refused at maxAnswerBytes, naming the route, origin and limit", async () => {
    const c = new BenchBountyClient({ baseUrl: `${base}/?key=QSECRET`, maxAnswerBytes: MiB });
    const e = await failure(c.me());
    expect(e).toMatchObject({
      status: 0,
      code: "answer_too_large",
      details: { http_status: 200, limit_bytes: MiB, option: "maxAnswerBytes" },
    });
    expect(e.message).toBe(
      `GET ${base}/api/v1/accounts/me: the answer is more than the client's limit of ${MiB} bytes ` +
        `(maxAnswerBytes; refused while reading, the rest not read): not an answer of bench-bounty serve (check the base URL)`,
    );
  });

  it("a refusal's body is read within MAX_ERROR_BYTES", async () => {
    const e = await failure(new BenchBountyClient({ baseUrl: base }).listBenchmarks());
    expect(e).toMatchObject({
      status: 0,
      code: "answer_too_large",
      details: { http_status: 500, limit_bytes: MAX_ERROR_BYTES, option: "(error body)" },
    });
  });

  it("the door's pack is read within maxPackBytes; a pack within it is returned whole", async () => {
    const c = new BenchBountyClient({ baseUrl: base, maxPackBytes: 2 * MiB });
    const e = await failure(c.awardEvidence("big"));
    expect(e).toMatchObject({
      code: "answer_too_large",
      details: { http_status: 200, limit_bytes: 2 * MiB, option: "maxPackBytes" },
    });
    expect(e.message).toContain(`GET ${base}/api/v1/benchmarks/big/award-evidence: the answer is more than`);
    const pack = await c.awardEvidence("small");
    expect(pack).toMatchObject({ kind: "pack", pack_hash: "0xab" });
    expect((pack as { bytes: Uint8Array }).bytes.byteLength).toBe(MiB);
    // the door's refusal is an error body
    const refusal = await failure(c.awardEvidence("nopack"));
    expect(refusal).toMatchObject({ code: "answer_too_large", details: { http_status: 404 } });
  });

  it("the verification report is read within maxAnswerBytes", async () => {
    const c = new BenchBountyClient({ baseUrl: base, maxAnswerBytes: MiB });
    const e = await failure(c.verificationReport("big"));
    expect(e).toMatchObject({ code: "answer_too_large", details: { limit_bytes: MiB } });
  });

  it("by default: a declared length over PACK_LIMITS.maxPackBytes (the door) or MAX_ANSWER_BYTES (JSON) is refused unread", async () => {
    expect(MAX_ANSWER_BYTES).toBe(PACK_LIMITS.maxTestSetBytes);
    const c = new BenchBountyClient({ baseUrl: base, timeoutMs: 20_000 });
    const door = await failure(c.awardEvidence("declared"));
    expect(door).toMatchObject({
      code: "answer_too_large",
      details: { limit_bytes: PACK_LIMITS.maxPackBytes, option: "maxPackBytes" },
    });
    expect(door.message).toContain(
      `the answer is ${PACK_LIMITS.maxPackBytes + 1} bytes, more than the client's limit of ${PACK_LIMITS.maxPackBytes} bytes (maxPackBytes)`,
    );
    const json = await failure(c.benchmark("declared"));
    expect(json).toMatchObject({
      code: "answer_too_large",
      details: { limit_bytes: MAX_ANSWER_BYTES, option: "maxAnswerBytes" },
    });
  });

  it("a limit that is not a positive integer is refused by the constructor naming the option", () => {
    for (const bad of [0, -1, 1.5, Number.NaN])
      expect(() => new BenchBountyClient({ baseUrl: base, maxPackBytes: bad })).toThrow(
        /^maxPackBytes must be a positive integer number of bytes/,
      );
  });
});
