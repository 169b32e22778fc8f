/**
 * The runner, remote: `bench-bounty run SLUG --server URL --api-key KEY --agent CMD` competes through
 * the HTTP API with the CLI agent protocol; the run is the key's; another key cannot resume it.
 */
import { mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { bubblewrapAvailable } from "@bench-bounty/platform";
import { beforeAll, describe, expect, it } from "vitest";
import { pastedArgs } from "@bench-bounty/platform/testing";
import { call, publishCities, register, useLive, runCli } from "./helpers.js";

const CLONE_BIN = new URL("../../../bin/bench-bounty", import.meta.url).pathname;
const AGENT = new URL("./fixtures/cities-agent.mjs", import.meta.url).pathname;
const live = useLive();
let slug: string;
beforeAll(async () => {
  slug = (await publishCities(live.url, 8, "remote")).slug;
});

describe("bench-bounty run --server", { timeout: 120_000 }, () => {
  it("competes over HTTP with the agent protocol; the run shows as the key's", async () => {
    const me = await register(live.url, "remote-runner");
    const store = mkdtempSync(join(tmpdir(), "bb-remote-"));
    const r = await runCli([
      "run",
      slug,
      "--server",
      live.url,
      "--api-key",
      me.key,
      "--agent",
      `node ${AGENT}`,
      "--agent-id",
      me.agent_id,
      "--store",
      store,
      "--no-progress",
    ]);
    expect(r.stderr).not.toMatch(/at .*\.js:\d+/);
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    const mine = await call(live.url, "GET", "/api/v1/benchmarks/runs/mine", { key: me.key });
    expect(mine.json.runs).toHaveLength(1);
    expect(mine.json.runs[0].status).toBe("finalized");
    expect(mine.json.runs[0].score_public).toBe("1.0000");
    expect(JSON.stringify(out)).toContain(mine.json.runs[0].run_id);

    const other = await register(live.url, "remote-intruder");
    const res = await runCli([
      "resume",
      mine.json.runs[0].run_id,
      "--server",
      live.url,
      "--api-key",
      other.key,
      "--store",
      store,
    ]);
    expect(res.code).toBe(1);
    expect(res.stderr).toMatch(/another account|forbidden|belongs/);
  });
  it("an agent that crashes before answering costs no attempt over HTTP either; the printed resume works", async () => {
    const me = await register(live.url, "remote-crash");
    const store = mkdtempSync(join(tmpdir(), "bb-remote-"));
    const env = { BENCH_BOUNTY_API_KEY: me.key };
    const common = ["--server", live.url, "--store", store, "--no-progress"];
    const r = await runCli(
      [
        "run",
        slug,
        ...common,
        "--agent",
        "echo 'Traceback: ModuleNotFoundError: openai' >&2; exit 2",
        "--agent-id",
        me.agent_id,
      ],
      env,
    );
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/the agent failed before any answer was submitted/);
    expect(r.stderr).toMatch(/status 2; its stderr ends:\n {4}Traceback: ModuleNotFoundError: openai/);
    const m = /\n {2}(\S+ resume (run-[0-9a-f]+) [^\n]*)\n/.exec(r.stderr);
    expect(m, r.stderr).not.toBeNull();
    // the key came from the environment: the command names no key (probe40 V-F6: `--api-key
    // "$BENCH_BOUNTY_API_KEY"` put the key in the resume's arguments, read by every local user in ps) and reads
    // the variable itself, as the next line says (probe40 B-F1: it said nothing, and pasted in a new shell
    // it was refused); the program is the clone's bin by its absolute path, which works pasted from any
    // directory (probe35 B-F1: `npx` with the bare name asked the public registry for a package of that name
    // outside the clone)
    expect(m![1]).toBe(`${CLONE_BIN} resume ${m![2]} --store ${store} --server ${live.url}`);
    expect(r.stderr).toContain(
      `${m![1]}\n  (run it where BENCH_BOUNTY_API_KEY holds your API key, exported: the key is not printed)\n`,
    );
    expect(r.stderr).not.toContain("--api-key");
    expect(r.stderr).not.toContain(me.key);
    const run = await call(live.url, "GET", `/api/v1/benchmarks/runs/${m![2]}`, { key: me.key });
    expect(run.json.status).toBe("in_progress");
    const resumed = await runCli([...pastedArgs(m![1]!, env), "--agent", `node ${AGENT}`], env);
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(JSON.parse(resumed.stdout)).toMatchObject({ run_id: m![2], attempt: 1 });
  });

  // probeD3 F1: the remote runner's --store (its checkpoints and agent logs, and a platform.sqlite when
  // it is also a local store: `serve` and `run --server` both default to ./.bench-bounty) was in sight
  it.skipIf(!bubblewrapAvailable())(
    "hides its --store directory from a sandboxed agent: a platform.sqlite there and other runs' logs",
    async () => {
      const me = await register(live.url, "remote-sandbox");
      const store = mkdtempSync(join(tmpdir(), "bb-remote-"));
      writeFileSync(join(store, "platform.sqlite"), "GOLD-MARKER", { mode: 0o600 });
      mkdirSync(join(store, "runs"), { recursive: true, mode: 0o700 });
      writeFileSync(join(store, "runs", "run-other.agent.log"), "OTHER-LOG", { mode: 0o600 });
      const spy = `{ ls -A ${store} ${store}/runs; cat ${store}/platform.sqlite ${store}/runs/run-other.agent.log; } >&2 2>&1; exec node ${AGENT}`;
      const r = await runCli(
        ["run", slug, "--server", live.url, "--store", store, "--no-progress", "--agent", spy].concat([
          "--agent-id",
          me.agent_id,
        ]),
        { BENCH_BOUNTY_API_KEY: me.key },
      );
      expect(r.code, r.stderr).toBe(0);
      const out = JSON.parse(r.stdout) as { run_id: string; score_public: string };
      expect(out.score_public).toBe("1.0000"); // the agent ran, and answered
      const log = readFileSync(join(store, "runs", `${out.run_id}.agent.log`), "utf8");
      expect(log).toMatch(/No such file/);
      expect(log).not.toMatch(/GOLD-MARKER|OTHER-LOG|platform\.sqlite\n|run-other\.agent\.log\n/);
    },
  );

  // probe35 A-F1: a `run --server` agent on the serving host read the service's store (every gold) with
  // one `cp`; the runner hides what --agent-hide (or BENCH_BOUNTY_AGENT_HIDE) names, as it hides --store
  it.skipIf(!bubblewrapAvailable())(
    "hides each --agent-hide path (and BENCH_BOUNTY_AGENT_HIDE's) from a sandboxed agent: a service store on the same host",
    async () => {
      const service = mkdtempSync(join(tmpdir(), "bb-service-"));
      writeFileSync(join(service, "platform.sqlite"), "SERVICE-GOLD", { mode: 0o600 });
      const keys = mkdtempSync(join(tmpdir(), "bb-keys-"));
      writeFileSync(join(keys, "operator.key"), "OPERATOR-KEY", { mode: 0o600 });
      const spy = `{ ls -A ${service} ${keys}; cat ${service}/platform.sqlite ${keys}/operator.key; } >&2 2>&1; exec node ${AGENT}`;
      // "both": the variable hides the service's store, the flag the keys: both hidden, never the flag
      // instead of the variable (probe35 V-F5: the variable was dropped once a flag was given)
      for (const how of ["cli", "env", "both"] as const) {
        const me = await register(live.url, `remote-hide-${how}`);
        const store = mkdtempSync(join(tmpdir(), "bb-remote-"));
        const hide =
          how === "cli"
            ? ["--agent-hide", service, "--agent-hide", keys]
            : how === "both"
              ? ["--agent-hide", keys]
              : [];
        const env = {
          BENCH_BOUNTY_API_KEY: me.key,
          ...(how === "env" ? { BENCH_BOUNTY_AGENT_HIDE: `${service}:${keys}` } : {}),
          ...(how === "both" ? { BENCH_BOUNTY_AGENT_HIDE: service } : {}),
        };
        const r = await runCli(
          ["run", slug, "--server", live.url, "--store", store, "--no-progress", "--agent", spy]
            .concat(hide)
            .concat(["--agent-id", me.agent_id]),
          env,
        );
        expect(r.code, r.stderr).toBe(0);
        const out = JSON.parse(r.stdout) as { run_id: string; score_public: string };
        expect(out.score_public).toBe("1.0000"); // the agent ran, and answered
        const log = readFileSync(join(store, "runs", `${out.run_id}.agent.log`), "utf8");
        expect(log).toMatch(/No such file/);
        expect(log, how).not.toMatch(/SERVICE-GOLD|OPERATOR-KEY|platform\.sqlite\n|operator\.key\n/);
      }
    },
  );

  it("refuses an --agent-hide path that does not exist, naming the option (or its variable) and the path", async () => {
    const missing = join(tmpdir(), "bb-no-such-service-dir");
    for (const [args, env, named] of [
      [["--agent-hide", missing], {}, "--agent-hide"],
      [
        [],
        { BENCH_BOUNTY_AGENT_HIDE: `${mkdtempSync(join(tmpdir(), "bb-hide-"))}:${missing}` },
        "BENCH_BOUNTY_AGENT_HIDE",
      ],
    ] as const) {
      const r = await runCli(
        [
          "run",
          slug,
          "--server",
          live.url,
          "--store",
          mkdtempSync(join(tmpdir(), "bb-remote-")),
          "--agent",
          "true",
          "--agent-id",
          "x",
          ...args,
        ],
        { BENCH_BOUNTY_API_KEY: "bbk_unused", ...env },
      );
      expect(r.code).toBe(1);
      expect(r.stderr).toContain(`${named}`);
      expect(r.stderr).toContain(`${missing}: `);
      expect(r.stderr).toMatch(/does not exist: a misspelt path would hide nothing/);
      expect(r.stderr).not.toMatch(/at .*\.js:\d+/);
    }
    // a symbolic link to a path that does not exist hides nothing either (probe35 V-N1: it was taken)
    const dangling = join(mkdtempSync(join(tmpdir(), "bb-hide-link-")), "service-store");
    symlinkSync(missing, dangling);
    const r = await runCli(
      [
        ...["run", slug, "--server", live.url, "--store", mkdtempSync(join(tmpdir(), "bb-remote-"))],
        ...["--agent", "true", "--agent-id", "x", "--agent-hide", dangling],
      ],
      { BENCH_BOUNTY_API_KEY: "bbk_unused" },
    );
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`--agent-hide ${dangling}: `);
    expect(r.stderr).toMatch(/is a symbolic link to a path that does not exist: it would hide nothing/);
  });

  it("refuses --server without --api-key, naming the option", async () => {
    const r = await runCli([
      "run",
      slug,
      "--server",
      live.url,
      "--agent",
      "true",
      "--agent-id",
      "x",
      "--store",
      mkdtempSync(join(tmpdir(), "bb-remote-")),
    ]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/--api-key/);
  });
});
