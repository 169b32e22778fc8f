/**
 * The one auditable command: `GET /api/v1/scripts/run-benchmark.sh` is byte-static (no slug, no host
 * inside), its SHA-256 is published, and both phases work under `dash` (a strict POSIX sh) with only
 * curl, against a live server: start onboards a key, submit scores the run; a wrong key is refused.
 */
import { createHash } from "node:crypto";
import { execFile, execFileSync } from "node:child_process";
import { chmodSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { beforeAll, describe, expect, it } from "vitest";
import { call, citiesAnswer, publishCities, register, useLive } from "./helpers.js";

const run = promisify(execFile);
const live = useLive();
let slug: string;
beforeAll(async () => {
  slug = (await publishCities(live.url, 6, "script")).slug;
});

/** Runs the served script the way the seed prints it: `curl -sSL URL | dash -s -- ARGS`. */
async function viaCurl(args: string[], env: Record<string, string> = {}) {
  const cmd = `curl -sSL ${live.url}/api/v1/scripts/run-benchmark.sh | dash -s -- ${args.map((a) => `'${a.replace(/'/g, "'\\''")}'`).join(" ")}`;
  return run("dash", ["-c", cmd], { env: { PATH: process.env.PATH!, ...env }, encoding: "utf8" }).then(
    (r) => ({ code: 0, ...r }),
    (e: { code: number; stdout: string; stderr: string }) => ({
      code: e.code,
      stdout: e.stdout,
      stderr: e.stderr,
    }),
  );
}

describe("run-benchmark.sh", { timeout: 120_000 }, () => {
  it("is byte-static and matches sha256sums.txt", async () => {
    const a = await fetch(`${live.url}/api/v1/scripts/run-benchmark.sh`).then((r) => r.arrayBuffer());
    const sums = await call(live.url, "GET", "/api/v1/scripts/sha256sums.txt");
    const hex = createHash("sha256").update(Buffer.from(a)).digest("hex");
    expect(sums.text).toBe(`${hex}  run-benchmark.sh\n`);
    const text = Buffer.from(a).toString("utf8");
    expect(text).not.toContain(slug);
    expect(text).not.toContain("127.0.0.1");
    expect(text.startsWith("#!/bin/sh\n")).toBe(true);
  });

  it("start then submit under dash: onboarding, tasks, score and leaderboard", async () => {
    const start = await viaCurl([live.url, "start", slug]);
    expect(start.code).toBe(0);
    const key = /export BENCH_BOUNTY_API_KEY=(\S+)/.exec(start.stderr)![1]!;
    const started = JSON.parse(start.stdout);
    expect(started.tasks.length).toBe(6);
    const answers = JSON.stringify(
      started.tasks.map((t: any) => ({ ordinal: t.ordinal, answer_text: citiesAnswer(t.prompt) })),
    );

    const stranger = await viaCurl([live.url, "submit", started.run.id, answers], {
      BENCH_BOUNTY_API_KEY: "bbk_wrong",
    });
    expect(stranger.code).toBe(1);
    expect(stranger.stderr).toMatch(/HTTP 403/);

    const submit = await viaCurl([live.url, "submit", started.run.id, answers], {
      BENCH_BOUNTY_API_KEY: key,
    });
    expect(submit.code).toBe(0);
    const [score, board] = submit.stdout
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(score.score_public).toBe("1.0000");
    expect(board.rows.map((r: any) => r.run_id)).toContain(started.run.id);
  });

  it("start without a key works for every stranger: each gets its own account (probe13 A2)", async () => {
    // a squatter takes the name the script used to register with; then two strangers paste the command
    await register(live.url, "run-benchmark.sh").catch(() => undefined);
    const keys: string[] = [];
    for (let i = 0; i < 2; i++) {
      const start = await viaCurl([live.url, "start", slug]);
      expect(start.code, start.stderr).toBe(0);
      keys.push(/export BENCH_BOUNTY_API_KEY=(\S+)/.exec(start.stderr)![1]!);
      expect(JSON.parse(start.stdout).tasks.length).toBe(6);
    }
    const ids = await Promise.all(
      keys.map(async (key) => (await call(live.url, "GET", "/api/v1/accounts/me", { key })).json.account_id),
    );
    expect(new Set(ids).size).toBe(2);
  });

  it("start sets BENCH_BOUNTY_WITHDRAWAL_ADDRESS for the new account or the keyed one (a prize service needs it, probe13 C3)", async () => {
    const addr = "0x00000000000000000000000000000000000a11ce";
    const fresh = await viaCurl([live.url, "start", slug], { BENCH_BOUNTY_WITHDRAWAL_ADDRESS: addr });
    expect(fresh.code, fresh.stderr).toBe(0);
    const key = /export BENCH_BOUNTY_API_KEY=(\S+)/.exec(fresh.stderr)![1]!;
    const me = await call(live.url, "GET", "/api/v1/accounts/me", { key });
    expect(me.json.agents[0].withdrawal_address).toBe(addr);
    const other = await register(live.url, "script-addr");
    const keyed = await viaCurl([live.url, "start", slug], {
      BENCH_BOUNTY_API_KEY: other.key,
      BENCH_BOUNTY_WITHDRAWAL_ADDRESS: addr,
    });
    expect(keyed.code, keyed.stderr).toBe(0);
    expect(
      (await call(live.url, "GET", "/api/v1/accounts/me", { key: other.key })).json.agents[0]
        .withdrawal_address,
    ).toBe(addr);
    for (const bad of ["0x123", `0x${"g".repeat(40)}`, `${addr}"}`])
      expect(
        (await viaCurl([live.url, "start", slug], { BENCH_BOUNTY_WITHDRAWAL_ADDRESS: bad })).code,
        bad,
      ).toBe(2);
  });

  it("never puts the API key in curl's argv (ps): a curl shim on PATH logs every argv", async () => {
    const dir = mkdtempSync(join(tmpdir(), "bb-curl-shim-"));
    const log = join(dir, "argv.log");
    const realCurl = execFileSync("sh", ["-c", "command -v curl"], { encoding: "utf8" }).trim();
    writeFileSync(join(dir, "curl"), `#!/bin/sh\nprintf '%s\\n' "$*" >> '${log}'\nexec '${realCurl}' "$@"\n`);
    chmodSync(join(dir, "curl"), 0o755);
    const { key } = await register(live.url, "script-shim");
    // the run opens with the key: it reached the server (curl's config on its stdin)
    const started = await viaCurl([live.url, "start", slug], {
      BENCH_BOUNTY_API_KEY: key,
      PATH: `${dir}:${process.env.PATH!}`,
    });
    expect(started.code).toBe(0);
    expect(JSON.parse(started.stdout).tasks.length).toBe(6);
    const argv = readFileSync(log, "utf8");
    expect(argv).toContain("--config -");
    expect(argv).toContain("/runs");
    expect(argv).not.toContain(key);
    expect(argv).not.toContain("X-API-Key");
  });

  it("refuses bad usage with exit 2 and a server refusal with exit 1", async () => {
    expect((await viaCurl([live.url, "start"])).code).toBe(2);
    expect((await viaCurl([live.url, "start", "Bad Slug"])).code).toBe(2);
    const unknown = await viaCurl([live.url, "start", "no-such-benchmark"], {
      BENCH_BOUNTY_API_KEY: "bbk_wrong",
    });
    expect(unknown.code).toBe(1);
  });

  // probe14 D2-F20: a 3xx counted as success (`[123]??`): a redirected start "succeeded" with no key
  it("a redirect is a refusal naming the status, never followed", async () => {
    const server = createServer((_req, res) => {
      res.writeHead(307, { location: "http://127.0.0.1:9/elsewhere" }).end();
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    const port = (server.address() as AddressInfo).port;
    try {
      // the script itself from the live server, the API calls to the redirecting one
      const cmd = `curl -sSL ${live.url}/api/v1/scripts/run-benchmark.sh | dash -s -- http://127.0.0.1:${port} start ${slug}`;
      const r = await run("dash", ["-c", cmd], { env: { PATH: process.env.PATH! }, encoding: "utf8" }).then(
        () => ({ code: 0, stderr: "" }),
        (e: { code: number; stderr: string }) => e,
      );
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(/: HTTP 307, a redirect \(not followed/);
    } finally {
      server.close();
    }
  });
});
