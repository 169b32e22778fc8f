/**
 * probe10 (body limits, slow headers): a client trickling its headers one byte every 2 s got its 408
 * after 64 s against a documented `headersTimeout` of 35 s: Node checks the deadline every
 * `connectionsCheckingInterval`, 30 s by default. The server checks every `checkMs` (2 s by default),
 * so the 408 comes between `headersMs` and `headersMs + checkMs`; here with small values.
 */
import { connect } from "node:net";
import { afterAll, describe, expect, it } from "vitest";
import { DEFAULT_TIMEOUTS } from "../src/index.js";
import { startLive, type Live } from "./helpers.js";

let live: Live | undefined;
let bodyLive: Live | undefined;
afterAll(async () => {
  await live?.stop();
  await bodyLive?.stop();
});

/** Sends a request line and then one header byte every `everyMs`; resolves with the answer's first line and when it came (ms). */
function trickle(url: string, everyMs: number, giveUpMs: number): Promise<{ line: string; ms: number }> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const t0 = Date.now();
    const socket = connect(Number(port), hostname);
    let got = "";
    const timer = setInterval(() => socket.write("x"), everyMs);
    const done = (f: () => void) => {
      clearInterval(timer);
      clearTimeout(giveUp);
      socket.destroy();
      f();
    };
    const giveUp = setTimeout(() => done(() => reject(new Error(`no answer in ${giveUpMs} ms`))), giveUpMs);
    socket.on("connect", () =>
      socket.write("GET /api/v1/benchmarks HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: "),
    );
    socket.on("data", (d) => {
      got += d.toString("latin1");
      if (got.includes("\r\n")) done(() => resolve({ line: got.split("\r\n")[0]!, ms: Date.now() - t0 }));
    });
    socket.on("error", (e) => done(() => reject(e)));
  });
}

describe("slow headers are cut off at the documented bound", () => {
  it("headersMs 1 s checked every 200 ms: a trickling client gets 408 between 1 and 1.2 s (plus slack)", async () => {
    live = await startLive({ timeouts: { headersMs: 1000, requestMs: 2000, checkMs: 200 } });
    const { line, ms } = await trickle(live.url, 100, 5000);
    expect(line).toMatch(/^HTTP\/1\.1 408/);
    expect(ms).toBeGreaterThanOrEqual(950);
    expect(ms).toBeLessThan(1000 + 200 + 800); // slack for a loaded machine; Node's default check is 30 s
  });
  it("the defaults: headers 35 s checked every 2 s (the README's bound, 37 s)", () => {
    expect(DEFAULT_TIMEOUTS).toEqual({
      keepAliveMs: 30_000,
      headersMs: 35_000,
      requestMs: 60_000,
      checkMs: 2_000,
    });
  });
});

// probe37 V-N4: a body trickling past the request limit was 503 request_timeout (the service's fault class),
// the connection kept alive with the rest of the declared body unread
describe("a body not all received within the request limit", () => {
  it("is 408 request_body_timeout in the error shape, and the connection is closed", async () => {
    bodyLive = await startLive({ limits: { handlerTimeoutMs: 1500 } });
    const { hostname, port } = new URL(bodyLive.url);
    const answer = await new Promise<{ text: string; closed: boolean }>((resolve, reject) => {
      const socket = connect(Number(port), hostname, () =>
        socket.write(
          'POST /api/v1/accounts HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"na',
        ),
      );
      let text = "";
      const giveUp = setTimeout(() => {
        socket.destroy();
        resolve({ text, closed: false });
      }, 8000);
      socket.on("data", (d: Buffer) => (text += d.toString("utf8")));
      socket.on("end", () => {
        clearTimeout(giveUp);
        resolve({ text, closed: true });
      });
      socket.on("error", reject);
    });
    expect(answer.text).toMatch(/^HTTP\/1\.1 408 /);
    const body = JSON.parse(answer.text.slice(answer.text.indexOf("\r\n\r\n") + 4)) as {
      error: { code: string; details: { limit_ms: number } };
    };
    expect(body.error).toMatchObject({ code: "request_body_timeout", details: { limit_ms: 1500 } });
    expect(answer.closed).toBe(true);
  });
});
