/**
 * The bounded file reader the tools share (`readBoundedFile`): a regular file is read whole up to the
 * bound; a device, a directory or (without `pipes`) a FIFO is refused unread, never waited on; a file
 * over the bound is refused by its size, a pipe at the bound while it is read.
 */
import { execFile, execFileSync } from "node:child_process";
import { mkdtempSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { BoundedFileError, PACK_LIMITS, readBoundedFile, SIZE_UNKNOWN_TEXT } from "../src/index.js";

const dir = mkdtempSync(join(tmpdir(), "bb-bounded-"));

/** The problem `readBoundedFile(path, options)` is refused with (fails when it is not refused). */
function problemOf(path: string, options?: Parameters<typeof readBoundedFile>[1]) {
  try {
    readBoundedFile(path, options);
  } catch (e) {
    expect(e).toBeInstanceOf(BoundedFileError);
    const b = e as BoundedFileError;
    expect(b.path).toBe(path);
    return { problem: b.problem, maxBytes: b.maxBytes, message: b.message };
  }
  throw new Error(`${path} was read`);
}

describe("readBoundedFile", () => {
  it("names an empty file name as such (probe25 B-F8), not as ENOENT", () => {
    expect(problemOf("")).toMatchObject({
      problem: { reason: "unreadable", code: "the file name is empty" },
    });
  });

  it.runIf(process.platform === "linux")(
    "refuses a file whose size reads 0 but holds data (/proc/self/environ) as size_unknown, never as grown",
    () => {
      expect(problemOf("/proc/self/environ")).toEqual({
        problem: { reason: "size_unknown" },
        maxBytes: PACK_LIMITS.maxPackBytes,
        message: `/proc/self/environ: ${SIZE_UNKNOWN_TEXT}`,
      });
    },
  );

  it("reads a regular file whole, at most the bound (default PACK_LIMITS.maxPackBytes)", () => {
    const file = join(dir, "ok.json");
    writeFileSync(file, "x".repeat(100));
    expect(Buffer.from(readBoundedFile(file)).toString()).toBe("x".repeat(100));
    expect(readBoundedFile(file, { maxBytes: 100 }).byteLength).toBe(100);
    expect(problemOf(file, { maxBytes: 99 })).toEqual({
      problem: { reason: "too_large", size: 100 },
      maxBytes: 99,
      message: `${file}: holds 100 bytes, over the limit of 99`,
    });
    expect(problemOf(join(dir, "none.json"))).toMatchObject({
      problem: { reason: "unreadable", code: "ENOENT" },
      maxBytes: PACK_LIMITS.maxPackBytes,
    });
  });

  it("refuses a device (by a symlink too), a directory and a FIFO unread, naming what it is", () => {
    const link = join(dir, "zero.json");
    symlinkSync("/dev/zero", link);
    const fifo = join(dir, "fifo.json");
    execFileSync("mkfifo", [fifo]);
    for (const [path, kind] of [
      ["/dev/zero", "a character device"],
      [link, "a character device"],
      [dir, "a directory"],
      [fifo, "a FIFO"], // no writer: refused at once, never waited on
    ] as const)
      expect(problemOf(path), path).toMatchObject({
        problem: { reason: "not_regular", kind },
        message: `${path}: is ${kind}, not a regular file`,
      });
    // a device is no pipe either
    expect(problemOf("/dev/zero", { pipes: true }).problem).toEqual({
      reason: "not_regular",
      kind: "a character device",
    });
  });

  it("with pipes: reads a FIFO to its writer's end, refusing it at the bound while it is read", async () => {
    const fifo = join(dir, "pipe.json");
    execFileSync("mkfifo", [fifo]);
    const small = execFile("sh", ["-c", `printf '{"a":1}' > ${fifo}`]);
    expect(Buffer.from(readBoundedFile(fifo, { pipes: true })).toString()).toBe('{"a":1}');
    await new Promise((r) => small.on("exit", r));
    const large = execFile("sh", ["-c", `head -c 100000 /dev/zero > ${fifo}`]);
    expect(problemOf(fifo, { pipes: true, maxBytes: 64 })).toEqual({
      problem: { reason: "too_large", size: null },
      maxBytes: 64,
      message: `${fifo}: holds more than 64 bytes, the limit`,
    });
    large.kill();
  });
});
