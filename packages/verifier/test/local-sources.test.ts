/**
 * Every local source is bounded while it is read (issue 13/15 re-probe h/probe4): a path whose stat
 * size says nothing (a FIFO, a process substitution `<(...)`, a /proc file) is streamed with the size
 * limit and abandoned at it; a device such as /dev/zero is refused unread, exit 2, at once.
 */
import { execFileSync, spawn, spawnSync } from "node:child_process";
import { createWriteStream, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { VerifierInputError, readSource } from "../src/index.js";
import { VECTORS } from "./helpers.js";

const BIN = fileURLToPath(new URL("../src/bin.ts", import.meta.url));
const PKG = fileURLToPath(new URL("..", import.meta.url));
const MiB = 1024 * 1024;

/** A fresh FIFO and a writer that writes `chunk` into it up to `cap` bytes; resolves the bytes written. */
function fifoWriter(chunk: Buffer, cap: number): { path: string; written: Promise<number> } {
  const path = join(mkdtempSync(join(tmpdir(), "bb-fifo-")), "pack");
  execFileSync("mkfifo", [path]);
  const written = new Promise<number>((resolve) => {
    const out = createWriteStream(path);
    let n = 0;
    const pump = () => {
      while (n < cap) {
        n += chunk.byteLength;
        if (!out.write(chunk)) return void out.once("drain", pump);
      }
      out.end();
    };
    out.on("error", () => resolve(n)); // EPIPE: the reader went away
    out.on("close", () => resolve(n));
    out.on("open", pump);
  });
  return { path, written };
}

describe("local sources are bounded while read", () => {
  it("a FIFO longer than the limit is refused at the limit: the writer is cut off, not drained", async () => {
    const { path, written } = fifoWriter(Buffer.alloc(64 * 1024, 0x20), 256 * MiB);
    const read = readSource(path, { maxBytes: 4 * MiB, what: "pack" });
    await expect(read).rejects.toThrow(VerifierInputError);
    await expect(read).rejects.toThrow(
      /the pack is more than the limit of 4194304 bytes \(refused while reading/,
    );
    // what was written past the limit is at most what the pipe and the stream buffer hold
    expect(await written).toBeLessThan(8 * MiB);
  });

  it("a FIFO within the limit is read whole (a pack through a pipe verifies as a file does)", async () => {
    const pack = readFileSync(join(VECTORS, "small.json"));
    const { path, written } = fifoWriter(pack, pack.byteLength);
    const r = await readSource(path, { what: "pack" });
    expect(Buffer.from(r.bytes).equals(pack)).toBe(true);
    expect(r.label).toBe(`file ${path}`);
    expect(await written).toBe(pack.byteLength);
  });

  it("a /proc file (stat size 0) is held to the limit", async () => {
    await expect(readSource("/proc/self/status", { maxBytes: 64, what: "pack" })).rejects.toThrow(
      /the pack is more than the limit of 64 bytes/,
    );
  });

  it.each([
    ["/dev/zero", "a character device"],
    ["/dev/urandom", "a character device"],
  ])("%s is refused unread: not_a_file naming what it is", async (path, kind) => {
    const e = await readSource(path, { what: "pack" }).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(VerifierInputError);
    expect((e as VerifierInputError).code).toBe("not_a_file");
    expect((e as Error).message).toContain(
      `is ${kind}, not a file (the pack; give a file, a pipe or - for standard input)`,
    );
  });

  it("`verify /dev/zero` exits 2 at once with a clear message", () => {
    const r = spawnSync(process.execPath, ["--import", "tsx", BIN, "verify", "/dev/zero"], {
      cwd: PKG,
      encoding: "utf8",
      timeout: 60_000,
    });
    expect(r.status).toBe(2);
    expect(r.stderr).toBe(
      "verify: bad input: file /dev/zero: is a character device, not a file (the pack; give a file, a pipe or - for standard input)\n",
    );
  });

  it("`verify <fifo>` reads a pack through a pipe: exit 0", async () => {
    const pack = readFileSync(join(VECTORS, "small.json"));
    const { path, written } = fifoWriter(pack, pack.byteLength);
    const child = spawn(process.execPath, ["--import", "tsx", BIN, "verify", path], { cwd: PKG });
    let stdout = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
    expect(stdout).toMatch(/commitment_root\s+ok verified/);
    expect(code).toBe(0);
    expect(await written).toBe(pack.byteLength);
  }, 60_000);
});
