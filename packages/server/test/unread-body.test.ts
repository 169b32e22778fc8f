/**
 * probe38 A-N2: a body nobody reads (a GET's, a HEAD's, a route's that takes none) was drained after the
 * answer without a byte limit: a GET declaring 1 GB was answered at once and the server then read its
 * 400 MiB in ~4 s; a one-byte-a-second trickle held the socket until the 60 s request deadline. Such a
 * body over 16 KiB (declared, or chunked) now gets `Connection: close`: the socket closes once the
 * answer is written, the rest never read. A small one is drained as before: the connection stays open.
 */
import { connect, type Socket } from "node:net";
import { describe, expect, it } from "vitest";
import { useLive } from "./helpers.js";

const live = useLive();

/** What one request over a raw socket saw. */
interface Seen {
  /** The answer's head (status line and headers), lower-cased. */
  head: string;
  /** Bytes of the body the socket accepted (each write's callback without an error). */
  accepted: number;
  /** Ms from the first byte of the answer to the socket's close. */
  closeAfterAnswerMs: number;
}

/**
 * Sends `head` and then a body as fast as the socket takes it (64 KiB writes, or `trickle`: one chunk
 * of a chunked body every 100 ms) until the server closes the connection or `giveUpMs` passes.
 */
function sendUnreadBody(
  url: string,
  head: string,
  opts: { bodyBytes: number; chunked?: boolean; trickle?: boolean; giveUpMs?: number },
): Promise<Seen> {
  const { port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket: Socket = connect(Number(port), "127.0.0.1");
    let answer = "";
    let answeredAt = 0;
    let accepted = 0;
    let closed = false;
    const chunk = Buffer.alloc(64 * 1024, 0x20);
    const giveUp = setTimeout(() => {
      socket.destroy();
      reject(
        new Error(`the connection was still open after ${opts.giveUpMs ?? 10_000} ms (accepted ${accepted})`),
      );
    }, opts.giveUpMs ?? 10_000);
    socket.on("data", (d: Buffer) => {
      if (answeredAt === 0) answeredAt = Date.now();
      answer += d.toString("latin1");
    });
    socket.on("error", () => {}); // EPIPE / ECONNRESET once the server closes: the close says it
    socket.on("close", () => {
      closed = true;
      clearTimeout(giveUp);
      resolve({
        head: answer.split("\r\n\r\n")[0]!.toLowerCase(),
        accepted,
        closeAfterAnswerMs: answeredAt === 0 ? -1 : Date.now() - answeredAt,
      });
    });
    const write = (bytes: Buffer): Promise<boolean> =>
      new Promise((done) => {
        if (closed || socket.destroyed) return done(false);
        socket.write(bytes, (err) => done(err == null));
      });
    socket.on("connect", () => {
      void (async () => {
        if (!(await write(Buffer.from(head, "latin1")))) return;
        let sent = 0;
        while (sent < opts.bodyBytes) {
          const piece = opts.trickle
            ? chunk.subarray(0, 1)
            : chunk.subarray(0, Math.min(chunk.length, opts.bodyBytes - sent));
          const bytes = opts.chunked
            ? Buffer.concat([Buffer.from(`${piece.length.toString(16)}\r\n`), piece, Buffer.from("\r\n")])
            : piece;
          if (!(await write(bytes))) return;
          accepted += piece.length;
          sent += piece.length;
          if (opts.trickle) await new Promise((r) => setTimeout(r, 100));
        }
      })();
    });
  });
}

const MB100 = 100 * 1000 * 1000;

describe("a request body nobody reads is bounded (probe38 A-N2)", () => {
  for (const [what, method, path] of [
    ["GET /api/v1/benchmarks", "GET", "/api/v1/benchmarks"],
    ["HEAD /api/v1/benchmarks", "HEAD", "/api/v1/benchmarks"],
    ["GET of a path that does not exist (404)", "GET", "/api/v1/no-such-thing"],
    ["GET of the leaderboard fast path (unknown benchmark)", "GET", "/api/v1/benchmarks/nope/leaderboard"],
    ["GET of the web root", "GET", "/"],
  ] as const) {
    it(`${what} declaring 100 MB: answered with Connection: close, the socket closed within 1 s, little read`, async () => {
      const host = new URL(live.url).host;
      const seen = await sendUnreadBody(
        live.url,
        `${method} ${path} HTTP/1.1\r\nHost: ${host}\r\nContent-Length: ${MB100}\r\n\r\n`,
        { bodyBytes: MB100 },
      );
      expect(seen.head).toMatch(/^http\/1\.1 \d{3} /);
      expect(seen.head).toContain("connection: close");
      expect(seen.closeAfterAnswerMs).toBeGreaterThanOrEqual(0);
      expect(seen.closeAfterAnswerMs).toBeLessThan(1000);
      // what the two loopback sockets' kernel buffers take, not the body (before: all 100 MB)
      expect(seen.accepted).toBeLessThan(16 * 1024 * 1024);
    });
  }

  it("a chunked GET body trickling one byte per 100 ms: closed within 1 s of the answer", async () => {
    const host = new URL(live.url).host;
    const seen = await sendUnreadBody(
      live.url,
      `GET /api/v1/benchmarks HTTP/1.1\r\nHost: ${host}\r\nTransfer-Encoding: chunked\r\n\r\n`,
      { bodyBytes: 1000, chunked: true, trickle: true, giveUpMs: 5_000 },
    );
    expect(seen.head).toMatch(/^http\/1\.1 200 /);
    expect(seen.head).toContain("connection: close");
    expect(seen.closeAfterAnswerMs).toBeGreaterThanOrEqual(0);
    expect(seen.closeAfterAnswerMs).toBeLessThan(1000);
    expect(seen.accepted).toBeLessThan(20);
  });

  it("a POST on a route whose refusal comes before its body is read (4xx): closed, little read", async () => {
    const host = new URL(live.url).host;
    const body = 3 * 1024 * 1024; // under the 4 MiB body limit: not refused from the headers
    const seen = await sendUnreadBody(
      live.url,
      `POST /api/v1/benchmarks/runs/run-0123456789abcdef/submissions HTTP/1.1\r\nHost: ${host}\r\nX-API-Key: bb_live_nope\r\nContent-Type: application/json\r\nContent-Length: ${body}\r\n\r\n`,
      { bodyBytes: body },
    );
    expect(seen.head).toMatch(/^http\/1\.1 4\d\d /);
    expect(seen.head).toContain("connection: close");
    expect(seen.closeAfterAnswerMs).toBeLessThan(1000);
  });

  it("a small GET body (100 bytes) is drained as before: the connection carries the next request", async () => {
    const { port, host } = new URL(live.url);
    const socket = connect(Number(port), "127.0.0.1");
    let answer = "";
    socket.on("data", (d: Buffer) => (answer += d.toString("latin1")));
    await new Promise((r) => socket.on("connect", r));
    const get = `GET /api/v1/benchmarks HTTP/1.1\r\nHost: ${host}\r\n`;
    socket.write(`${get}Content-Length: 100\r\n\r\n${" ".repeat(100)}${get}\r\n`);
    await expect.poll(() => answer.match(/HTTP\/1\.1 200 /g)?.length ?? 0, { timeout: 5_000 }).toBe(2);
    expect(answer.toLowerCase()).not.toContain("connection: close");
    socket.destroy();
  });
});
