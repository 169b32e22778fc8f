/**
 * `verify --out PATH` never replaces what is at PATH when it is not a regular file (probe D2-F10): the report
 * was written to a temporary file and renamed over PATH, so a symbolic link, a FIFO or a device node there
 * (as root, `--out /dev/full` replaced the device) became a JSON file. Now a symbolic link to a regular file
 * is written through (its target replaced atomically, the link kept), and anything else that is not a
 * regular file is refused before the pack is read: exit 2 naming `--out`, the path untouched.
 */
import { spawnSync } from "node:child_process";
import {
  closeSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readFileSync,
  readlinkSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { BIN, PKG, VECTORS, runCliSync } from "./helpers.js";

const SMALL = join(VECTORS, "small.json");

const run = runCliSync;

const dir = (): string => mkdtempSync(join(tmpdir(), "verify-out-"));

/** Make a node with a shell command (mkfifo, mknod); false when this machine does not allow it. */
function make(cmd: string, args: string[]): boolean {
  return spawnSync(cmd, args).status === 0;
}

describe("--out onto something that is not a regular file (D2-F10)", () => {
  it("a symbolic link to a regular file is written through: the target holds the report, the link stays", () => {
    const d = dir();
    writeFileSync(join(d, "target.json"), "original\n");
    symlinkSync("target.json", join(d, "link.json"));
    const r = run(["verify", SMALL, "--out", join(d, "link.json")]);
    expect(r.code, r.stderr).toBe(0);
    expect(lstatSync(join(d, "link.json")).isSymbolicLink()).toBe(true);
    expect(readlinkSync(join(d, "link.json"))).toBe("target.json");
    const report = JSON.parse(readFileSync(join(d, "target.json"), "utf8")) as { schema: string };
    expect(report.schema).toBe("bench-bounty.verification.v1");
  });

  it("a FIFO is refused before anything is read: exit 2 naming --out, the FIFO untouched", (ctx) => {
    const d = dir();
    const fifo = join(d, "fifo");
    if (!make("mkfifo", [fifo])) ctx.skip("mkfifo is not available here");
    const r = run(["verify", SMALL, "--out", fifo]);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toBe(
      `verify: bad input: --out: ${JSON.stringify(fifo)} is a FIFO, not a regular file: the report is written only to a regular file (or through a symbolic link to one)\n`,
    );
    expect(r.stdout).toBe("");
    expect(lstatSync(fifo).isFIFO()).toBe(true);
  });

  it("a device node is refused (a copy of /dev/null, made where mknod is allowed): never replaced", (ctx) => {
    const d = dir();
    const dev = join(d, "null");
    if (!make("mknod", [dev, "c", "1", "3"])) ctx.skip("mknod is not allowed here (not root)");
    const r = run(["verify", SMALL, "--out", dev]);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toMatch(/^verify: bad input: --out: ".*null" is a character device, not a regular file/);
    expect(lstatSync(dev).isCharacterDevice()).toBe(true);
  });

  it("a symbolic link to a FIFO (as /proc/self/fd/1 is to a pipe) is refused, the link and the FIFO kept", (ctx) => {
    const d = dir();
    const fifo = join(d, "fifo");
    if (!make("mkfifo", [fifo])) ctx.skip("mkfifo is not available here");
    symlinkSync("fifo", join(d, "to-fifo"));
    const r = run(["verify", SMALL, "--out", join(d, "to-fifo")]);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toMatch(/--out: ".*to-fifo" is a symbolic link to a FIFO, not a regular file/);
    expect(lstatSync(join(d, "to-fifo")).isSymbolicLink()).toBe(true);
    expect(lstatSync(fifo).isFIFO()).toBe(true);
  });

  it("--out /proc/self/fd/1 (standard output, a pipe or socket here) is refused with a true reason, not ENOENT", (ctx) => {
    if (!existsSync("/proc/self/fd/1")) ctx.skip("no /proc here");
    const r = run(["verify", SMALL, "--out", "/proc/self/fd/1"]);
    expect(r.code, r.stderr).toBe(2);
    // Node's child-process pipes are sockets; a shell's are FIFOs
    expect(r.stderr).toMatch(
      /^verify: bad input: --out: "\/proc\/self\/fd\/1" is a symbolic link to a (FIFO|socket), not a regular file/,
    );
    expect(r.stderr).not.toMatch(/ENOENT|does not exist/);
  });

  it("a dangling symbolic link and a directory are refused, both kept", () => {
    const d = dir();
    symlinkSync("nowhere.json", join(d, "dangling.json"));
    mkdirSync(join(d, "sub"));
    const dangling = run(["verify", SMALL, "--out", join(d, "dangling.json")]);
    expect(dangling.code, dangling.stderr).toBe(2);
    expect(dangling.stderr).toMatch(
      /--out: ".*dangling\.json" is a symbolic link to nothing \(its target does not exist\)/,
    );
    expect(lstatSync(join(d, "dangling.json")).isSymbolicLink()).toBe(true);
    const sub = run(["verify", SMALL, "--out", join(d, "sub")]);
    expect(sub.code, sub.stderr).toBe(2);
    expect(sub.stderr).toMatch(/--out: ".*sub" is a directory, not a regular file/);
    expect(lstatSync(join(d, "sub")).isDirectory()).toBe(true);
  });

  it("a directory that exists but where no file can be created is not called missing (ENOENT in /proc)", (ctx) => {
    if (!existsSync("/proc/self")) ctx.skip("no /proc here");
    const r = run(["verify", SMALL, "--out", "/proc/self/report.json"]);
    expect(r.code, r.stderr).toBe(3);
    expect(r.stderr).toBe(
      "verify: cannot write --out /proc/self/report.json: no file can be created in its directory (ENOENT)\n",
    );
  });

  it("an empty --out is a bad option, refused before the pack is read: exit 2, not exit 3 after the walk (probe30 B-F7)", () => {
    // a pack that does not exist: refused for --out first shows nothing was read
    const r = run(["verify", join(dir(), "absent.json"), "--out", ""]);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toBe(
      'verify: bad input: --out: "" is an empty path: the report is written only to a regular file (or through a symbolic link to one)\n',
    );
    expect(r.stdout).toBe("");
  });

  it("a regular file is replaced atomically as before", () => {
    const d = dir();
    writeFileSync(join(d, "r.json"), "old\n");
    const r = run(["verify", SMALL, "--out", join(d, "r.json")]);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(readFileSync(join(d, "r.json"), "utf8")).schema).toBe("bench-bounty.verification.v1");
  });
});

describe("standard output that cannot be written (D2-F10, the same class)", () => {
  it("> /dev/full: exit 3 naming standard output and ENOSPC, not exit 1 with a stack", (ctx) => {
    if (!existsSync("/dev/full")) ctx.skip("no /dev/full here");
    const full = openSync("/dev/full", "w");
    try {
      const r = spawnSync(process.execPath, ["--import", "tsx", BIN, "verify", SMALL], {
        cwd: PKG,
        env: { ...process.env, NO_COLOR: "1" },
        stdio: ["ignore", full, "pipe"],
        encoding: "utf8",
      });
      expect(r.status, r.stderr).toBe(3);
      expect(r.stderr).toBe("verify: cannot write standard output: no space left on the device (ENOSPC)\n");
    } finally {
      closeSync(full);
    }
  });

  it("| a reader that closes at once (EPIPE): quiet, the command's own exit code", () => {
    const alone = run(["verify", SMALL]);
    const err = join(dir(), "stderr.txt");
    const r = spawnSync(
      "bash",
      ["-c", 'node --import tsx "$0" verify "$1" 2>"$2" | true; echo "${PIPESTATUS[0]}"', BIN, SMALL, err],
      { cwd: PKG, env: { ...process.env, NO_COLOR: "1" }, encoding: "utf8" },
    );
    expect(Number(r.stdout.trim())).toBe(alone.code);
    expect(readFileSync(err, "utf8")).toBe("");
  });

  // probe26 B-F4: a program that writes after an await, once `head` has closed the pipe, ended in an
  // unhandled 'error' event (EPIPE) with a stack and exit 1 (`bench-bounty`'s entry point installs this)
  it("endOutputQuietlyOnClosedPipe: later writes are dropped (their callbacks still called), the program's own exit code", () => {
    const script = [
      `import { endOutputQuietlyOnClosedPipe } from ${JSON.stringify(join(PKG, "src", "cli.ts"))};`,
      "endOutputQuietlyOnClosedPipe();",
      "const line = (s) => new Promise((r) => process.stdout.write(s + '\\n', r));",
      "await line('first');",
      "await new Promise((r) => setTimeout(r, 300));",
      "for (let i = 0; i < 3; i++) { await line('later ' + i); await new Promise((r) => setTimeout(r, 50)); }",
      "process.stderr.write('done\\n');",
      "process.exitCode = 7;",
    ].join("\n");
    const file = join(dir(), "writer.mjs");
    writeFileSync(file, script);
    const r = spawnSync("bash", ["-c", 'node --import tsx "$0" | head -1; echo "${PIPESTATUS[0]}"', file], {
      cwd: PKG,
      encoding: "utf8",
    });
    expect(r.stdout).toBe("first\n7\n");
    expect(r.stderr).toBe("done\n");
  });
});
