/**
 * probe36 A-N1: request targets the Node adapter cannot build a URL from (`OPTIONS *`, `GET *`, an
 * no Host header) were answered 400 `text/plain` with an empty body, before the
 * app: they are now 400 `invalid_request_target` in the service's JSON error shape; ordinary targets are unchanged.
 */
import { connect } from "node:net";
import { describe, expect, it } from "vitest";
import { useLive } from "./helpers.js";

const live = useLive();

/** Sends `head` (the request line and headers, CRLF-separated, no body) on a raw socket; the raw answer. */
function rawRequest(head: string): Promise<string> {
  return rawBytes(`${head}\r\n\r\n`);
}

/** Sends `bytes` as they are on a raw socket; the raw answer. */
function rawBytes(bytes: string): Promise<string> {
  const { hostname, port } = new URL(live.url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.end(bytes));
    const chunks: Buffer[] = [];
    socket.on("data", (d: Buffer) => chunks.push(d));
    socket.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    socket.on("error", reject);
  });
}

/** The status, content type and JSON body of a raw HTTP/1.x answer (not chunked: Content-Length or close). */
function parsed(answer: string): { status: number; type: string; body: any } {
  const [head, body = ""] = answer.split("\r\n\r\n", 2) as [string, string?];
  const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(head)![1]);
  const type = /^content-type: *(.*)$/im.exec(head)?.[1] ?? "";
  return { status, type, body: JSON.parse(body) };
}

describe("request targets the adapter cannot take (probe36 A-N1)", () => {
  it.each([
    ["OPTIONS * HTTP/1.1", /request target "\*" is not a path/],
    ["GET * HTTP/1.1", /request target "\*" is not a path/],
  ])("%s: 400 invalid_request_target as JSON", async (line, says) => {
    const r = parsed(await rawRequest(`${line}\r\nHost: 127.0.0.1\r\nConnection: close`));
    expect(r.status).toBe(400);
    expect(r.type).toMatch(/^application\/json/);
    expect(r.body.error.code).toBe("invalid_request_target");
    expect(r.body.error.message).toMatch(says);
  });

  it("a request without Host: 400 invalid_request_target naming the header", async () => {
    const r = parsed(await rawRequest("GET /api/v1/benchmarks HTTP/1.0"));
    expect(r.status).toBe(400);
    expect(r.body.error).toMatchObject({ code: "invalid_request_target", details: { header: "host" } });
  });

  it("a path and an absolute-form target still reach the app", async () => {
    const path = await rawRequest("GET /api/v1/benchmarks HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close");
    expect(path).toMatch(/^HTTP\/1\.1 200 /);
    const absolute = await rawRequest(
      `GET ${live.url}/api/v1/benchmarks HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close`,
    );
    expect(absolute).toMatch(/^HTTP\/1\.1 200 /);
  });
});

/**
 * probe37 A-N1: what Node's HTTP parser refuses before any handler (bad framing, a head over 16 KiB) was
 * answered with an empty body; it is now the service's JSON error shape.
 */
describe("requests Node's HTTP parser refuses (probe37 A-N1)", () => {
  const H = "Host: 127.0.0.1\r\nConnection: close";
  it.each([
    ["a header name with a space", `GET /api/v1/benchmarks HTTP/1.1\r\n${H}\r\nBad Name: x\r\n\r\n`],
    [
      "Content-Length and Transfer-Encoding both",
      `POST /api/v1/datasets HTTP/1.1\r\n${H}\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\nabc`,
    ],
    [
      "a chunk size that is not hex",
      `POST /api/v1/datasets HTTP/1.1\r\n${H}\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n`,
    ],
    [
      "two Content-Lengths",
      `POST /api/v1/datasets HTTP/1.1\r\n${H}\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\nab`,
    ],
  ])("%s: 400 malformed_http as JSON", async (_what, bytes) => {
    const r = parsed(await rawBytes(bytes));
    expect(r.status).toBe(400);
    expect(r.type).toMatch(/^application\/json/);
    expect(r.body.error.code).toBe("malformed_http");
    expect(r.body.error.details.parser_code).toMatch(/^HPE_/);
  });

  it("a 20,000-character slug in the URL: 431 request_headers_too_large naming the limit", async () => {
    const r = parsed(await rawRequest(`GET /api/v1/benchmarks/${"a".repeat(20_000)} HTTP/1.1\r\n${H}`));
    expect(r.status).toBe(431);
    expect(r.type).toMatch(/^application\/json/);
    expect(r.body.error).toMatchObject({
      code: "request_headers_too_large",
      details: { limit_bytes: 16_384 },
    });
    expect(r.body.error.message).toMatch(/over 16 KiB/);
  });

  it("the service still answers after them", async () => {
    await rawRequest(`GET /api/v1/benchmarks/${"a".repeat(20_000)} HTTP/1.1\r\n${H}`);
    expect(await rawRequest(`GET /api/v1/benchmarks HTTP/1.1\r\n${H}`)).toMatch(/^HTTP\/1\.1 200 /);
  });
});
