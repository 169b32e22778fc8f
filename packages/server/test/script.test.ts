/**
 * The one auditable command: `GET /api/v1/scripts/run-benchmark.sh` is byte-static (no slug, no host
 * inside), its SHA-256 is published, and both phases work under `dash` (a strict POSIX sh) with only
 * curl, against a live server: start onboards a key, submit scores the run; a wrong key is refused.
 */
import { createHash } from "node:crypto";
import { execFile, execFileSync } from "node:child_process";
import { chmodSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { keyPrefixOf, mintKey } from "@bench-bounty/platform";
import { beforeAll, describe, expect, it } from "vitest";
import { RUN_BENCHMARK_SH } from "../src/routes/static.js";
import { call, citiesAnswer, publishCities, register, useLive } from "./helpers.js";

const run = promisify(execFile);
const live = useLive();
let slug: string;
beforeAll(async () => {
  slug = (await publishCities(live.url, 6, "script")).slug;
});

/** Runs the served script the way the seed prints it: `curl -sSL URL | dash -s -- ARGS`. */
/** A key of the form the platform issues that no account holds (the server refuses it, the script does not). */
const UNKNOWN_KEY = `bbk_000000000000_${"A".repeat(43)}`;

/** Runs the served script against `apiBase` (another server than the one serving the script), in `cwd`. */
async function scriptAgainst(apiBase: string, args: string[], env: Record<string, string>, cwd: string) {
  const cmd = `curl -sSL ${live.url}/api/v1/scripts/run-benchmark.sh | dash -s -- ${apiBase} ${args.join(" ")}`;
  return run("dash", ["-c", cmd], { env: { PATH: process.env.PATH!, ...env }, encoding: "utf8", cwd }).then(
    (r) => ({ code: 0, ...r }),
    (e: { code: number; stdout: string; stderr: string }) => e,
  );
}

/**
 * A server answering every request with `answer(method, url)` (a body: status 200/201; or a status and
 * a body), logging each request line.
 */
async function fakeServer(
  answer: (method: string, url: string) => string | { status: number; body: string },
) {
  const seen: string[] = [];
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    seen.push(`${req.method} ${req.url}`);
    req.resume();
    req.on("end", () => {
      const a = answer(req.method!, req.url!);
      const { status, body } =
        typeof a === "string" ? { status: req.method === "POST" ? 201 : 200, body: a } : a;
      res.writeHead(status, { "content-type": "application/json" }).end(body);
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    close: () => server.close(),
  };
}

/** A benchmark detail as a service without a chain serves it (canonical JSON): open, no awarder. */
const OPEN_DETAIL =
  '{"commitment":{"awarder":null},"open":true,"status":"published","withdrawal_address_required":false}';

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
      BENCH_BOUNTY_API_KEY: UNKNOWN_KEY,
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
      BENCH_BOUNTY_API_KEY: UNKNOWN_KEY,
    });
    expect(unknown.code).toBe(1);
  });

  // probe35 A-F3: start registered an account before it knew the run could start: every refused start
  // (no withdrawal address, a misspelt slug, a closed benchmark) left an account and printed a key
  it("start reads the benchmark first: unknown, closed, or a prize service without an address registers nothing (probe35 A-F3)", async () => {
    const dir = mkdtempSync(join(tmpdir(), "bb-start-check-"));
    const awarder =
      '{"commitment":{"awarder":"0x00000000000000000000000000000000000a11ce"},"open":true,"withdrawal_address_required":true}';
    // probe36 A-F3: a process without a chain on a store used on one serves no awarder (before the
    // store recorded one) but requires the address all the same: the flag decides, not the awarder
    const chainless = '{"commitment":{"awarder":null},"open":true,"withdrawal_address_required":true}';
    const closed = '{"commitment":{"awarder":null},"open":false,"status":"published"}';
    for (const [detail, code, said] of [
      [awarder, 2, "set BENCH_BOUNTY_WITHDRAWAL_ADDRESS=0x"],
      [chainless, 2, "set BENCH_BOUNTY_WITHDRAWAL_ADDRESS=0x"],
      [closed, 1, "the benchmark is not open"],
    ] as const) {
      const server = await fakeServer((_m, url) =>
        url === `/api/v1/benchmarks/${slug}` ? detail : `{"account_id":"acct_1","api_key":"${UNKNOWN_KEY}"}`,
      );
      try {
        const r = await scriptAgainst(server.url, ["start", slug], {}, dir);
        expect(r.code, r.stderr).toBe(code);
        expect(r.stderr).toContain(said);
        expect(r.stderr).toContain("nothing registered");
        expect(r.stderr).not.toContain("export BENCH_BOUNTY_API_KEY");
        expect(server.seen).toEqual([`GET /api/v1/benchmarks/${slug}`]);
      } finally {
        server.close();
      }
    }
    // a misspelt slug on the live server: its 404, no account
    const typo = await viaCurl([live.url, "start", `${slug}-typo`]);
    expect(typo.code).toBe(1);
    expect(typo.stderr).toContain("HTTP 404");
    expect(typo.stderr).not.toContain("registered");
    // a start refused after the registration says the account exists and which key to reuse
    const refusing = await fakeServer((_m, url) =>
      url === `/api/v1/benchmarks/${slug}`
        ? OPEN_DETAIL
        : url === "/api/v1/accounts"
          ? `{"account_id":"acct_1","api_key":"${UNKNOWN_KEY}"}`
          : {
              status: 409,
              body: '{"error":{"code":"withdrawal_address_required","message":"withdrawal_address: ..."}}',
            },
    );
    try {
      const r = await scriptAgainst(refusing.url, ["start", slug], {}, dir);
      expect(r.code).toBe(1);
      expect(r.stderr).toContain(
        `the account it registered exists: export BENCH_BOUNTY_API_KEY=${UNKNOWN_KEY} and run start again with it`,
      );
      expect(r.stderr).toContain("set BENCH_BOUNTY_WITHDRAWAL_ADDRESS=0x");
    } finally {
      refusing.close();
    }
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

  // probe26 B-F9: the api_key a server answered went into curl's --config unchecked: a key holding
  // newlines set any curl option (`output = PATH` wrote the server's answer to a file it chose)
  it("refuses a server's api_key that is not a key: nothing used, printed or written (probe26 B-F9)", async () => {
    const dir = mkdtempSync(join(tmpdir(), "bb-evil-key-"));
    const pwned = join(dir, "pwned.sh");
    const keys = [
      `bbk_x\noutput = ${pwned}\nreferer = x`,
      `bbk_000000000000_${"A".repeat(42)}\\`,
      `bbk_000000000000_${"A".repeat(42)}\nurl = http://127.0.0.1:9/`,
      `bbk_00000000000g_${"A".repeat(43)}`,
      `bbk_000000000000_${"A".repeat(44)}`,
      `bbk_000000000000_${"A".repeat(42)} `,
      // review: the hex part was checked only up to its first `_`: `bbk__` then a newline passed
      `bbk__\noutput=xyz_${"A".repeat(43)}`,
      `bbk__\noutput=../_${"A".repeat(43)}`,
    ];
    for (const key of keys) {
      const evil = await fakeServer((_m, url) =>
        url === "/api/v1/accounts"
          ? `{"account_id":"acct_1","api_key":"${key}"}` // raw, as a hostile server sends it (not JSON-escaped)
          : url === `/api/v1/benchmarks/${slug}`
            ? OPEN_DETAIL
            : '{"run":{"id":"run-1"},"tasks":[]}',
      );
      try {
        const r = await scriptAgainst(evil.url, ["start", slug], {}, dir);
        expect(r.code, JSON.stringify(key)).toBe(1);
        expect(r.stderr).toContain("POST /api/v1/accounts: the server's api_key is not a bench-bounty key");
        expect(r.stderr).not.toContain("export BENCH_BOUNTY_API_KEY");
        expect(r.stderr).not.toContain("output =");
        expect(r.stdout).toBe("");
        expect(evil.seen).toEqual([`GET /api/v1/benchmarks/${slug}`, "POST /api/v1/accounts"]);
        expect(existsSync(pwned)).toBe(false);
      } finally {
        evil.close();
      }
    }
  });

  it("refuses a server's benchmark that is not a slug before using it in a URL (probe26 B-F9)", async () => {
    const dir = mkdtempSync(join(tmpdir(), "bb-evil-slug-"));
    const evil = await fakeServer((_m, url) =>
      url === "/api/v1/benchmarks/runs/run-1"
        ? JSON.stringify({ benchmark: "../accounts/me?x=1" })
        : '{"score_public":"1.0000"}',
    );
    try {
      const r = await scriptAgainst(
        evil.url,
        ["submit", "run-1", "'[]'"],
        { BENCH_BOUNTY_API_KEY: UNKNOWN_KEY },
        dir,
      );
      expect(r.code).toBe(1);
      expect(r.stderr).toContain("the server's benchmark is not a slug");
      expect(evil.seen).toEqual([
        "POST /api/v1/benchmarks/runs/run-1/submissions",
        "POST /api/v1/benchmarks/runs/run-1/finalize",
        "GET /api/v1/benchmarks/runs/run-1",
      ]);
    } finally {
      evil.close();
    }
  });

  it("a BENCH_BOUNTY_API_KEY that is not a key is exit 2 before anything is sent, the value not shown (probe26 B-F9)", async () => {
    const dir = mkdtempSync(join(tmpdir(), "bb-bad-key-"));
    const evil = await fakeServer(() => "{}");
    try {
      for (const [bad, args] of [
        ["bbk_wrong", ["start", slug]],
        [`${UNKNOWN_KEY}"\nreferer = x`, ["start", slug]],
        [`${UNKNOWN_KEY}\\`, ["submit", "run-1", "'[]'"]],
      ] as const) {
        const r = await scriptAgainst(evil.url, [...args], { BENCH_BOUNTY_API_KEY: bad }, dir);
        expect(r.code, bad).toBe(2);
        expect(r.stderr).toContain("bad BENCH_BOUNTY_API_KEY (not shown)");
        expect(r.stderr).not.toContain(bad);
      }
      expect(evil.seen).toEqual([]);
    } finally {
      evil.close();
    }
  });

  it("the script's is_key accepts exactly the keys the platform issues and parses (probe26 B-F9)", () => {
    const fn = /^is_key\(\) \{\n[\s\S]*?\n\}\n/m.exec(RUN_BENCHMARK_SH.toString("utf8"))![0];
    const minted = Array.from({ length: 40 }, () => mintKey().api_key);
    const k = minted[0]!;
    const candidates = [
      ...minted,
      k.slice(0, -1),
      `${k}A`,
      k.replace("bbk_", "bbk-"),
      k.replace(/^bbk_./, "bbk_G"),
      `${k.slice(0, 17)}${k.slice(18)}=`,
      `${k.slice(0, -1)}\n`,
      `${k.slice(0, -1)}"`,
      `${k.slice(0, -1)}\\`,
      `${k.slice(0, -1)}é`,
      `${k.slice(0, -1)} `,
      `${k.slice(0, 16)}-${k.slice(17)}`,
      "bbk_wrong",
      "",
    ];
    const verdicts = execFileSync(
      "dash",
      [
        "-c",
        `${fn}for k in "$@"; do if is_key "$k"; then echo y; else echo n; fi; done`,
        "sh",
        ...candidates,
      ],
      { encoding: "utf8" },
    )
      .trim()
      .split("\n");
    expect(verdicts).toEqual(candidates.map((c) => (keyPrefixOf(c) !== null ? "y" : "n")));
    expect(verdicts.filter((v) => v === "y").length).toBe(minted.length);
  });
});
