import { spawn, spawnSync } from "node:child_process";
import { createServer as createHttpServer } from "node:http";
import {
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { seattlePublishArgs } from "@bench-bounty/platform/testing";
import { describe, expect, it } from "vitest";
import { startGenesisRpc } from "./genesis-rpc.js";

const here = dirname(fileURLToPath(import.meta.url));
const bin = join(here, "..", "dist", "index.js");
const smallPack = join(here, "..", "..", "..", "spec", "vectors", "packs", "small.json");

function cli(args: string[]) {
  return spawnSync(process.execPath, [bin, ...args], { encoding: "utf8" });
}

/** `run some-slug --server SERVER --store STORE --agent true --agent-id a1` and any `extra` arguments. */
function runServerArgs(server: string, store: string, ...extra: string[]): string[] {
  return [
    "run",
    "some-slug",
    "--server",
    server,
    ...extra,
    "--store",
    store,
    "--agent",
    "true",
    "--agent-id",
    "a1",
  ];
}

describe("arguments that are not UTF-8 (probe26 B-F6)", () => {
  /** The bin through bash, so the argument's raw bytes reach it (spawn takes only strings). */
  const viaShell = (title: string) =>
    spawnSync(
      "bash",
      ["-c", `"$0" "$1" publish no-such-file.json --title "$(printf '${title}')"`, process.execPath, bin],
      {
        encoding: "utf8",
      },
    );

  it("refuses --title whose bytes are not UTF-8 naming the option; UTF-8 text, U+FFFD typed in, passes this check", () => {
    for (const bad of ["T\\xffx", "T\\xed\\xa0\\x80x"]) {
      const r = viaShell(bad);
      expect(r.status, r.stderr).toBe(1);
      expect(r.stderr).toBe(
        "error: the value of --title is not UTF-8: pass text encoded as UTF-8 (its bytes would be stored as U+FFFD)\n",
      );
    }
    for (const good of ["T\\xc3\\xa9x", "T\\xef\\xbf\\xbdx"]) {
      const r = viaShell(good);
      expect(r.stderr).not.toMatch(/not UTF-8/);
    }
  });

  // probe32 B-F4: the same bytes in BENCH_BOUNTY_STORE were decoded lossily and the store created at
  // `st` + U+FFFD, a path nobody gave
  it("refuses an option's environment variable whose bytes are not UTF-8 naming the variable, where its value is used", () => {
    const dir = mkdtempSync(join(tmpdir(), "bb-env-utf8-"));
    const withEnv = (value: string, ...extra: string[]) =>
      spawnSync(
        "bash",
        [
          "-c",
          `BENCH_BOUNTY_STORE="$(printf '${value}')" "$0" "$1" leaderboard x "\${@:2}"`,
          process.execPath,
          bin,
          ...extra,
        ],
        { cwd: dir, encoding: "utf8" },
      );
    for (const bad of ["st\\xffx", "st\\xed\\xa0\\x80x"]) {
      const r = withEnv(bad);
      expect(r.status, r.stderr).toBe(1);
      expect(r.stderr).toBe(
        "error: the value of BENCH_BOUNTY_STORE (the environment form of --store) is not UTF-8: pass text encoded as UTF-8 (its bytes would be stored as U+FFFD)\n",
      );
    }
    expect(readdirSync(dir)).toEqual([]); // no store anywhere
    // the flag given: the variable is not read, so not refused
    const flag = withEnv("st\\xffx", "--store", join(dir, "given"));
    expect(flag.stderr).not.toMatch(/not UTF-8/);
    // UTF-8 in the variable passes this check
    expect(withEnv("st\\xc3\\xa9x").stderr).not.toMatch(/not UTF-8/);
  });
});

// probe33 B-F11: `run --agent-env NAME` handed the agent a value whose bytes were not UTF-8 with U+FFFD in
// their place; refused by the same rule as an option's environment form
describe("run --agent-env of a value that is not UTF-8 (probe33 B-F11)", () => {
  it("is refused naming the variable before anything is written", () => {
    const dir = mkdtempSync(join(tmpdir(), "bb-agent-env-utf8-"));
    const r = spawnSync(
      "bash",
      [
        "-c",
        `MYSECRET="$(printf 'ab\\xffcd')" "$0" "$1" run x --store "$2" --agent true --agent-id a1 --agent-env MYSECRET`,
        process.execPath,
        bin,
        join(dir, "store"),
      ],
      { cwd: dir, encoding: "utf8" },
    );
    expect(r.status, r.stderr).toBe(1);
    expect(r.stderr).toMatch(/^error: --agent-env MYSECRET: its value is not UTF-8: set it as UTF-8 text/);
    expect(readdirSync(dir)).toEqual([]); // no store
  });
});

describe("bench-bounty CLI (composed)", () => {
  // probe15 B-F12: printed commands said `bench-bounty ...`, not on PATH in a fresh clone; probe35 V-F4: they
  // kept a relative program path and a relative --store as typed, so pasted in another directory they failed
  it("a printed command names the program and the store absolutely and works when pasted in another directory", async () => {
    const repo = join(here, "..", "..", "..");
    const store = mkdtempSync(join(tmpdir(), "bb-cli-paste-"));
    // a chain that answers the open's genesis read only (store28 R-F1): the commitment's anchor fails
    const chain = ["--rpc-url", await startGenesisRpc(), "--chain-id", "8453"];
    const addrs = ["--bounty-contract", `0x${"22".repeat(20)}`, "--anchor-registry", `0x${"33".repeat(20)}`];
    const env = { ...process.env, BENCH_BOUNTY_PRIVATE_KEY: `0x${"11".repeat(32)}` };
    const published = spawnSync(
      "./bin/bench-bounty",
      [...seattlePublishArgs("paste"), "--store", relative(repo, store), ...chain, ...addrs],
      { cwd: repo, env, encoding: "utf8" },
    );
    expect(published.status, published.stderr).toBe(0);
    // the command alone on its line (probe21 B-F9 class)
    const printed = /retry it with:\n {4}(.*)$/m.exec(published.stderr)?.[1];
    expect(printed?.split(" --rpc-url ")[0], published.stderr).toBe(
      `${resolve(repo, "bin/bench-bounty")} anchor paste --store ${store}`,
    );
    // pasted into a shell elsewhere, as printed
    const elsewhere = mkdtempSync(join(tmpdir(), "bb-cli-elsewhere-"));
    const pasted = spawnSync("sh", ["-c", `${printed} --list`], { cwd: elsewhere, env, encoding: "utf8" });
    expect(pasted.status, pasted.stderr).toBe(0);
    expect(JSON.parse(pasted.stdout).pending).toEqual([expect.objectContaining({ kind: "commitment" })]);
  });

  // probe35 V-N2: reached through a symlink (a link in ~/bin), the script looked for the build beside the link
  it("bin/bench-bounty reached through a symlink finds its clone's build", () => {
    const links = mkdtempSync(join(tmpdir(), "bb-cli-link-"));
    symlinkSync(resolve(here, "..", "..", "..", "bin", "bench-bounty"), join(links, "bench-bounty"));
    const r = spawnSync(join(links, "bench-bounty"), ["--help"], { cwd: links, encoding: "utf8" });
    expect(r.stderr).not.toContain("no build at");
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^\s+publish\b/m);
  });

  // probe36 V-N2: a copy outside the clone said "not built yet" (run the set-up), which would not help
  it("a copy of bin/bench-bounty outside the clone says to run it from the clone", () => {
    const dir = mkdtempSync(join(tmpdir(), "bb-cli-copy-"));
    const copy = join(dir, "bench-bounty");
    writeFileSync(copy, readFileSync(resolve(here, "..", "..", "..", "bin", "bench-bounty")), {
      mode: 0o755,
    });
    const r = spawnSync(copy, ["--help"], { cwd: dir, encoding: "utf8" });
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(
      /^bench-bounty: no build at .*: run this script from the clone's bin\/ \(or through a symlink to it\)/,
    );
  });

  it("--version prints the package's version", () => {
    const res = cli(["--version"]);
    expect(res.status, res.stderr).toBe(0);
    const pkg = JSON.parse(readFileSync(join(here, "..", "package.json"), "utf8")) as { version: string };
    expect(res.stdout).toBe(`${pkg.version}\n`);
  });

  it("lists the platform and the verifier commands", () => {
    expect(existsSync(bin), "build the package first").toBe(true);
    const res = cli(["--help"]);
    expect(res.status).toBe(0);
    for (const command of ["publish", "run", "award", "serve", "verify", "verify-receipt"]) {
      expect(res.stdout).toMatch(new RegExp(`^\\s+${command}\\b`, "m"));
    }
  });

  it("--help names the --receipt-anchoring default each command really uses (probe11 O14)", () => {
    // commander wraps the help to the terminal's width: compare with the line breaks folded
    const help = (args: string[]) => cli([...args, "--help"]).stdout.replace(/\s+/g, " ");
    expect(help(["serve"])).toContain(
      '--receipt-anchoring <mode> anchor each receipt at finalize, or batch them (anchor) (choices: "immediate", "batch", default: "batch")',
    );
    expect(help(["run"])).toContain('(choices: "immediate", "batch", default: "immediate")');
  });

  // probe36 C-N1: `award --award-confirmations 3` once made every later award of the store wait for 3, and
  // no command's help said the value is kept in the store, nor the default when it was never set
  it("--award-confirmations' help says, on every command that has it, that it is kept in the store for later awards (probe36 C-N1)", () => {
    const helps = new Map(
      [...cli(["--help"]).stdout.matchAll(/^ {2}([a-z-]+) /gm)]
        .map((m) => m[1]!)
        .filter((c) => c !== "help")
        .map((c) => [c, cli([c, "--help"]).stdout.replace(/\s+/g, " ")] as const),
    );
    const having = [...helps].filter(([, h]) => h.includes("--award-confirmations <n>")).map(([c]) => c);
    expect(having).toEqual(expect.arrayContaining(["award", "serve", "attach", "run", "evidence"]));
    for (const c of having.filter((c) => c !== "evidence"))
      expect(helps.get(c), c).toContain(
        "Kept in the store (meta.award_confirmations) once given (the flag or its env) with --rpc-url: every later award on this store, of every benchmark and process (serve's too), waits as long without the flag, until it is given again. Never set: 1, the block the award is mined in",
      );
    // evidence only reads: its value is not kept, and its help does not say it is
    const evidence = helps.get("evidence")!;
    expect(evidence).toContain(
      "This command only reads: the value is not kept in the store, and the store's kept one (set by another command's --award-confirmations) is used instead when there is one. Never set: 1",
    );
    expect(evidence).not.toContain("Kept in the store");
  }, 180_000);

  it("verifies the shared vector pack offline and names the policy", () => {
    const res = cli(["verify", smallPack, "--policy", "offline", "--json"]);
    expect(res.status).toBe(0);
    const report = JSON.parse(res.stdout);
    expect(report.schema).toBe("bench-bounty.verification.v1");
    expect(report.policy).toBe("offline");
    expect(report.policy_met).toBe(true);
    expect(report.facts.pack_hash.state).toBe("verified");
  });

  it("refuses a file that is not JSON with the bad-input exit code and no stack trace", () => {
    const res = cli(["verify", join(here, "cli.test.ts"), "--policy", "offline"]);
    expect(res.status).toBe(2);
    expect(res.stderr).not.toMatch(/\n\s+at /);
  });

  it("serve on a port in use, an invalid host or port 99999: one line naming the option, exit 1", async () => {
    const store = mkdtempSync(join(tmpdir(), "bb-cli-serve-"));
    const busy: Server = createServer();
    await new Promise<void>((res) => busy.listen(0, "127.0.0.1", () => res()));
    const port = (busy.address() as { port: number }).port;
    try {
      let r = cli(["serve", "--store", store, "--port", String(port)]);
      expect(r.status).toBe(1);
      expect(r.stderr).toMatch(new RegExp(`^error: --port: port ${port} is already in use`));
      r = cli(["serve", "--store", store, "--port", "0", "--host", "999.1.1.1"]);
      expect(r.status).toBe(1);
      expect(r.stderr).toMatch(/^error: --host: cannot listen on 999\.1\.1\.1/);
      r = cli(["serve", "--store", store, "--port", "99999"]);
      expect(r.status).not.toBe(0);
      expect(r.stderr).toMatch(/--port.*0\.\.65535/);
    } finally {
      await new Promise<void>((res) => busy.close(() => res()));
    }
  }, 60_000); // three serve processes started one after another (each loads the whole bin)

  it("serve refuses a short operator key and a malformed DATABASE_URL without echoing either secret", () => {
    const store = mkdtempSync(join(tmpdir(), "bb-cli-serve-"));
    const run = (env: Record<string, string>) =>
      spawnSync(process.execPath, [bin, "serve", "--store", store, "--port", "0"], {
        encoding: "utf8",
        env: { PATH: process.env.PATH!, ...env },
      });
    let r = run({ BENCH_BOUNTY_OPERATOR_KEY: "..." });
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/^error: BENCH_BOUNTY_OPERATOR_KEY is too short \(3 characters, at least 32\)/);
    r = run({ DATABASE_URL: "postgresql:/postgres:secretpw@127.0.0.1/db" });
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/^error: DATABASE_URL must be a postgresql:\/\/ URL/);
    expect(r.stderr).not.toContain("secretpw");
  }, 60_000);

  it("run --server: a non-http(s) URL, userinfo or an /api/v1 or /mcp path is refused naming the flag, never echoing the value; a network error shows the origin only", () => {
    const store = mkdtempSync(join(tmpdir(), "bb-cli-server-"));
    const runWith = (server: string) => cli(runServerArgs(server, store, "--api-key", "k"));
    for (const [server, start] of [
      ["ftp://u:SRVPW@x/SRVKEY?apikey=SRVQ", "error: --server must be an http:// or https:// URL"],
      ["not a url SRVPW", "error: --server must be an http:// or https:// URL"],
      [
        "http://u:SRVPW@127.0.0.1:1/SRVKEY?apikey=SRVQ",
        "error: --server must not carry userinfo (http://127.0.0.1:1:",
      ],
      [
        "http://127.0.0.1:1/SRVKEY?apikey=SRVQ",
        "error: POST http://127.0.0.1:1/api/v1/benchmarks/some-slug/runs: ",
      ],
      // probe39 A-N1: the API's base or the MCP endpoint pasted for the service's base
      [
        "http://127.0.0.1:1/api/v1?apikey=SRVQ",
        "error: --server is the service's base URL, without /api/v1 (for example http://127.0.0.1:1): bench-bounty adds /api/v1/... itself",
      ],
      [
        "http://127.0.0.1:1/bench/api/v1/",
        "error: --server is the service's base URL, without /api/v1 (for example http://127.0.0.1:1/bench): ",
      ],
      [
        "http://127.0.0.1:1/API/V1",
        "error: --server is the service's base URL, without /API/V1 (for example http://127.0.0.1:1): ",
      ],
      [
        "http://127.0.0.1:1/mcp/SRVKEY",
        "error: --server is the service's base URL, without /mcp (for example http://127.0.0.1:1): ",
      ],
    ] as const) {
      const r = runWith(server);
      expect(r.status).toBe(1);
      expect(r.stderr.startsWith(start)).toBe(true);
      expect(r.stderr + r.stdout).not.toMatch(/SRVPW|SRVKEY|SRVQ/);
    }
  }, 60_000);

  // probe40 B-N2: the key went in clear text to another host without a word
  it("run --server with plain http:// to a host that is not loopback warns that the key travels unencrypted; https:// or a loopback host does not", () => {
    const store = mkdtempSync(join(tmpdir(), "bb-cli-server-"));
    const warning =
      /^warning: --server is plain http:\/\/ to 0\.0\.0\.0:1, not this machine: the API key travels unencrypted/;
    const plain = cli(runServerArgs("http://0.0.0.0:1", store, "--api-key", "k"));
    expect(plain.stderr).toMatch(warning);
    expect(plain.stderr).toMatch(
      /\nerror: POST http:\/\/0\.0\.0\.0:1\/api\/v1\/benchmarks\/some-slug\/runs: /,
    );
    for (const server of [
      "https://0.0.0.0:1",
      "http://localhost:1",
      "http://[::1]:1",
      "http://127.0.0.2:1",
    ]) {
      const r = cli(runServerArgs(server, store, "--api-key", "k"));
      expect(r.status, server).toBe(1);
      expect(r.stderr, server).toMatch(/^error: POST /);
    }
  }, 60_000);

  // probe24 B-F4: the remote runner made --store and --store/runs 0755, the local runner 0700
  it("run --server --store DIR makes DIR, the levels above it and DIR/runs 0700, as the local runner", () => {
    const top = join(mkdtempSync(join(tmpdir(), "bb-cli-remote-store-")), "a");
    const store = join(top, "store");
    const r = cli(runServerArgs("http://127.0.0.1:1", store, "--api-key", "k"));
    expect(r.stderr).toMatch(/^error: POST http:\/\/127\.0\.0\.1:1\/api\/v1\/benchmarks\/some-slug\/runs: /);
    const mode = (p: string) => (statSync(p).mode & 0o777).toString(8);
    expect([top, store, join(store, "runs")].map(mode)).toEqual(["700", "700", "700"]);
  }, 60_000);

  // probeD2 F3: another server at --server answering 200 JSON that is not a run ended in
  // "bench-bounty: internal error: Cannot read properties of undefined (reading 'id')"; the route
  // went after the base's query (`GET /?token=T/api/v1/...`)
  it("run --server at a server that is not bench-bounty serve: one line naming the route and origin, never an internal error", async () => {
    const seen: string[] = [];
    const stub = createHttpServer((req, res) => {
      seen.push(`${req.method} ${req.url}`);
      res.setHeader("content-type", req.url?.includes("/html/") ? "text/html" : "application/json");
      // probe15 B-F1: a run id that is a path (or a shell command) must never name a file or a command
      const hostile = { run: { id: "../../../../tmp/bb-traversed", attempt: 1 }, tasks: [] };
      res.end(
        req.url?.includes("/html/")
          ? "<!doctype html><p>portal</p>"
          : req.url?.includes("/trav/")
            ? JSON.stringify(hostile)
            : "{}",
      );
    });
    await new Promise<void>((r) => stub.listen(0, "127.0.0.1", r));
    const origin = `http://127.0.0.1:${(stub.address() as { port: number }).port}`;
    const store = mkdtempSync(join(tmpdir(), "bb-cli-notserve-"));
    const runAt = (server: string) =>
      new Promise<{ code: number | null; out: string; err: string }>((resolve, reject) => {
        const child = spawn(process.execPath, [bin, ...runServerArgs(server, store)], {
          env: { ...process.env, BENCH_BOUNTY_API_KEY: "bbk_x" },
        });
        let out = "";
        let err = "";
        child.stdout.setEncoding("utf8").on("data", (d: string) => (out += d));
        child.stderr.setEncoding("utf8").on("data", (d: string) => (err += d));
        child.on("error", reject);
        child.on("close", (code) => resolve({ code, out, err }));
      });
    try {
      for (const [server, route, why] of [
        [
          `${origin}/?token=QSECRET`,
          "/api/v1/benchmarks/some-slug/runs?token=QSECRET",
          "the answer has no run",
        ],
        [`${origin}/html/KEYPATH#frag`, "/html/KEYPATH/api/v1/benchmarks/some-slug/runs", "not JSON"],
        [`${origin}/trav/KEYPATH`, "/trav/KEYPATH/api/v1/benchmarks/some-slug/runs", "run-<16 hex>"],
      ] as const) {
        seen.length = 0;
        const r = await runAt(server);
        expect(seen).toEqual([`POST ${route}`]);
        expect(r.code, r.err).toBe(1);
        expect(r.err).not.toContain("internal error");
        expect(r.err).toContain(`${origin}`);
        expect(r.err).toContain(why);
        expect(r.err + r.out).not.toMatch(/QSECRET|KEYPATH/);
      }
      expect(existsSync("/tmp/bb-traversed.json")).toBe(false); // nothing written outside --store
    } finally {
      stub.close();
    }
  }, 60_000);
});

// probe29 B-F2: a single-valued option given twice was read as its last value, in every command
describe("a single-valued option given twice is refused by every command of the bin (probe29 B-F2)", () => {
  it("serve, verify, publish and lock name the option and both values; nothing is started or written", () => {
    const store = mkdtempSync(join(tmpdir(), "bb-twice-"));
    const serve = cli(["serve", "--store", store, "--port", "0", "--port", "1"]);
    expect(serve.status).toBe(1);
    expect(serve.stderr).toContain(`option '--port <port>' is given twice ("0" and "1"): give it once`);
    const verify = cli(["verify", smallPack, "--policy", "full", "--policy", "offline"]);
    expect(verify.status).toBe(2);
    expect(verify.stdout).not.toMatch(/MET/);
    expect(verify.stderr).toContain(`option '--policy <name>' is given twice ("full" and "offline")`);
    const publish = cli([
      ...seattlePublishArgs("twice"),
      "--store",
      join(store, "st"),
      "--public-fraction",
      "0.5",
      "--public-fraction",
      "0.75",
    ]);
    expect(publish.status).toBe(1);
    expect(publish.stderr).toContain(`option '--public-fraction <f>' is given twice ("0.5" and "0.75")`);
    expect(existsSync(join(store, "st"))).toBe(false);
    const lock = cli(["lock", "twice", "--store", join(store, "st"), "--pool", "1", "--pool", "100"]);
    expect(lock.status).toBe(1);
    expect(lock.stderr).toContain(`option '--pool <usdc>' is given twice ("1" and "100")`);
  });
});

describe("the verify command the served tutorial prints runs as pasted (probe31 A-F3)", () => {
  it("verify-an-award.md's `./bin/bench-bounty verify ...` lines parse: no unknown option", () => {
    const tutorial = readFileSync(
      join(here, "..", "..", "server", "assets", "content", "verify-an-award.md"),
      "utf8",
    );
    const commands = tutorial
      .split("\n")
      .filter((l) => /^\s+\.\/bin\/bench-bounty verify /.test(l))
      .map((l) => l.trim().split(/\s+/).slice(1));
    expect(commands.length).toBeGreaterThan(0);
    for (const args of commands) {
      // the pack a reader downloaded, and an RPC nobody answers: an input or reach failure, never a usage error
      const pasted = args.map((a) =>
        a === "pack.json" ? smallPack : a === "$RPC" ? "http://127.0.0.1:1" : a,
      );
      const r = cli(pasted);
      expect(r.stderr, args.join(" ")).not.toMatch(/unknown option|error: option/);
      expect(r.status, r.stderr).not.toBe(2);
    }
  });
});
