/**
 * The total deadline of a verification (issue 13 re-probe, probe/verifier-deadlines.sh): `--timeout`
 * bounded each request, but an indexer (or RPC, or door) answering every request a little under it kept
 * the verifier running for rounds x timeout, with no bound at all. `--deadline` bounds the whole walk:
 * at the deadline the request in flight is aborted, no further one starts, and the command exits 3 with
 * a message naming the deadline. The slow server here answers every GET correctly shaped, late.
 */
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  EXIT_CODES,
  OFFLINE_STEPS,
  VerificationDeadlineError,
  readPack,
  verifyOffline,
  verifyPack,
  withinDeadline,
} from "../src/index.js";
import { BIN, PKG, packBytes, packTree, VECTORS } from "./helpers.js";

const LATE_MS = 250;
let server: Server;
let base: string;
/** Requests the server received, and how many it is answering right now. */
let seen = 0;
/** How long the walk took without a short deadline (measured in this run, the baseline of the bound). */
let fullMs = 0;

beforeAll(async () => {
  server = createServer((req, res) => {
    seen++;
    const t = setTimeout(() => {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ items: [], credits: [], anchors: [], bounty: {}, winners: [] }));
    }, LATE_MS);
    res.on("close", () => clearTimeout(t));
    req.resume();
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe("a total deadline across the verification (--deadline)", () => {
  it("without a deadline short enough, a late indexer is walked to the end: several requests, each under --timeout", async () => {
    seen = 0;
    const t0 = Date.now();
    const report = await verifyPack({ source: packBytes("small"), indexerUrl: base, timeoutMs: 2000 });
    const took = Date.now() - t0;
    fullMs = took;
    expect(report.facts.indexer_agreement.state).toBe("failed"); // the answers are empty: disagreements
    expect(seen).toBeGreaterThanOrEqual(3);
    expect(took).toBeGreaterThanOrEqual(3 * LATE_MS - 50); // one request after the other
  });

  it("ends at the deadline with VerificationDeadlineError, aborting the request in flight and starting none after", async () => {
    seen = 0;
    const t0 = Date.now();
    const e = await verifyPack({
      source: packBytes("small"),
      indexerUrl: base,
      timeoutMs: 2000,
      deadlineMs: 2 * LATE_MS + 100,
    }).catch((x: unknown) => x);
    const took = Date.now() - t0;
    expect(e).toBeInstanceOf(VerificationDeadlineError);
    expect((e as Error).message).toMatch(/did not finish within its total deadline of 600 ms \(--deadline/);
    // bounded by the deadline, not by the walk: well under the unbounded run (timings on a shared machine)
    expect(took).toBeLessThan(Math.max(fullMs / 2, 600 + 300));
    await wait(100); // a request sent just before the deadline may reach the server just after it
    const atDeadline = seen;
    await wait(3 * LATE_MS);
    expect(seen).toBe(atDeadline); // the walk stopped: nothing was requested after the deadline
  });

  it("the CLI exits 3 with the message, documented in --help", async () => {
    const bin = fileURLToPath(new URL("../src/bin.ts", import.meta.url));
    const run = (args: string[]) =>
      new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
        const child = spawn(process.execPath, ["--import", "tsx", bin, ...args], {
          cwd: fileURLToPath(new URL("..", import.meta.url)),
          env: { ...process.env, NO_COLOR: "1" },
        });
        let stdout = "";
        let stderr = "";
        child.stdout.on("data", (d) => (stdout += d));
        child.stderr.on("data", (d) => (stderr += d));
        child.on("close", (code) => resolve({ code, stdout, stderr }));
      });
    const r = await run([
      "verify",
      join(VECTORS, "small.json"),
      "--indexer",
      base,
      "--policy",
      "full",
      "--timeout",
      "2000",
      "--deadline",
      String(LATE_MS + 100),
    ]);
    expect(r.code, r.stderr).toBe(EXIT_CODES.networkOrIo);
    expect(r.stderr).toContain(
      "verify: deadline: the verification did not finish within its total deadline of 350 ms",
    );
    expect(r.stdout).toBe("");
    const help = await run(["verify", "--help"]);
    expect(help.stdout).toMatch(/--deadline <ms>\s+total time of the whole verification/);
    expect(help.stdout).toContain("or not within --deadline");
  }, 90_000);

  // probe19 B-F7: at the deadline the message was printed but the process never ended: opening a FIFO
  // nobody writes blocked a libuv thread until a writer came. probe21 B-F1: the same when the FIFO's
  // writer holds it open and writes nothing, or half a pack: a blocking read() held the thread; and
  // `verify -` from a pipe whose writer stays silent (the stdin stream kept the process alive). Both are
  // now read through a non-blocking pipe handle that the deadline destroys, whatever the writer does.
  /** [case, what `verify` reads, the FIFO's writer (a shell script given the FIFO's path) or stdin's bytes]. */
  const writers: Array<[string, "fifo" | "-", string | null]> = [
    ["a FIFO nobody writes", "fifo", null],
    ["a FIFO whose writer holds it open and writes nothing", "fifo", 'exec sleep 60 > "$1"'],
    [
      "a FIFO whose writer writes half a pack and stays",
      "fifo",
      `exec 3> "$1"; printf '{"benchmark":' >&3; exec sleep 60`,
    ],
    ["standard input from a pipe whose writer writes nothing", "-", ""],
    ["standard input from a pipe whose writer writes half a pack", "-", '{"benchmark":'],
  ];
  it.runIf(process.platform !== "win32").each(writers)(
    "the CLI exits 3 at the deadline whatever the writer does: %s",
    async (_name, from, writing) => {
      const dir = mkdtempSync(join(tmpdir(), "bb-fifo-"));
      const fifo = join(dir, "pack.fifo");
      spawnSync("mkfifo", [fifo]);
      const writer =
        from === "fifo" && writing !== null
          ? spawn("sh", ["-c", writing, "sh", fifo], { stdio: "ignore" })
          : null;
      const source = from === "fifo" ? fifo : "-";
      const child = spawn(
        process.execPath,
        ["--import", "tsx", BIN, "verify", source, "--deadline", "1500"],
        {
          cwd: PKG,
          env: { ...process.env, NO_COLOR: "1" },
          stdio: [from === "-" ? "pipe" : "ignore", "pipe", "pipe"],
        },
      );
      if (from === "-") child.stdin?.write(writing ?? ""); // and the pipe is kept open
      let stderr = "";
      child.stderr?.setEncoding("utf8").on("data", (d: string) => (stderr += d));
      const ended = await new Promise<number | null | "hung">((resolve) => {
        const hung = setTimeout(() => {
          child.kill("SIGKILL");
          resolve("hung");
        }, 30_000);
        child.on("close", (code) => {
          clearTimeout(hung);
          resolve(code);
        });
      });
      writer?.kill("SIGKILL");
      child.stdin?.destroy();
      expect(ended, stderr).toBe(EXIT_CODES.networkOrIo);
      expect(stderr).toContain(
        "verify: deadline: the verification did not finish within its total deadline of 1500 ms",
      );
    },
    60_000,
  );
});

// probe32 B-F5: verify-receipt's deadline message was verify's, naming the pack and the indexer
describe("verify-receipt's deadline names what it reads", () => {
  it.runIf(process.platform !== "win32")(
    "a JWKS FIFO nobody writes: exit 3 naming the execute response, the JWKS, --input, --output and the RPC",
    async () => {
      const dir = mkdtempSync(join(tmpdir(), "bb-receipt-deadline-"));
      const fifo = join(dir, "jwks.fifo");
      spawnSync("mkfifo", [fifo]);
      const execute = join(dir, "execute.json");
      writeFileSync(
        execute,
        JSON.stringify({ receipt_jws: "eyJhbGciOiJFUzI1NiIsImtpZCI6ImsxIn0.eyJ4IjoxfQ.AAAA", output: "x" }),
      );
      const r = spawnSync(
        process.execPath,
        ["--import", "tsx", BIN, "verify-receipt", execute, "--jwks", fifo, "--deadline", "1500"],
        { cwd: PKG, env: { ...process.env, NO_COLOR: "1" }, encoding: "utf8", timeout: 30_000 },
      );
      expect(r.status, r.stderr).toBe(EXIT_CODES.networkOrIo);
      expect(r.stderr).toBe(
        "verify-receipt: deadline: the verification did not finish within its total deadline of 1500 ms (--deadline; reading the execute response, the JWKS, --input, --output and the RPC, and computing the facts, all count); raise --deadline, or use faster sources or RPC\n",
      );
    },
    60_000,
  );
});

// probe26 B-F1: the off-chain walk computes without yielding, so the deadline's timer could not end it
// (a pack whose regrade took minutes ran past --deadline 5000); the walk checks the clock between steps
describe("the deadline holds while the facts are computed", () => {
  it("withinDeadline's overdue throws once the deadline has passed during synchronous work", async () => {
    const e = await withinDeadline(50, async (_signal, overdue) => {
      overdue(); // in time: nothing
      const end = Date.now() + 120;
      while (Date.now() < end); // computing, the timer cannot fire
      overdue();
      return "finished";
    }).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(VerificationDeadlineError);
    expect((e as Error).message).toMatch(/within its total deadline of 50 ms .*computing the facts/);
  });

  it("the off-chain walk checks the deadline before each step and stops at the first overdue check", () => {
    const view = readPack(packTree("small"));
    let checks = 0;
    const result = verifyOffline(view, undefined, () => void checks++);
    expect(Object.keys(result.facts).length).toBeGreaterThan(0);
    expect(checks).toBeGreaterThanOrEqual(OFFLINE_STEPS.length);
    let seenSteps = 0;
    expect(() =>
      verifyOffline(readPack(packTree("small")), undefined, () => {
        if (++seenSteps > 2) throw new VerificationDeadlineError(1);
      }),
    ).toThrow(VerificationDeadlineError);
    expect(seenSteps).toBe(3);
  });
});
