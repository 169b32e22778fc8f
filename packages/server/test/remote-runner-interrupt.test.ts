/**
 * probe37 A-N4: a remote run cut by a network error, or by a 503 `server_busy` past its retries, stops
 * with the `resume` line every other interruption prints, the run left in progress; the pasted line
 * finishes it. A 503 `server_busy` with `Retry-After` is posted again (at most 3 times) and the run goes on.
 */
import { mkdtempSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EdgeError } from "../src/errors.js";
import { pastedArgs } from "@bench-bounty/platform/testing";
import { call, publishCities, register, useLive, runCli } from "./helpers.js";

const AGENT = new URL("./fixtures/cities-agent.mjs", import.meta.url).pathname;

/** Called before the domain takes each submission (0-based count): the tests refuse some 503 from it. */
let beforeSubmit: (n: number) => void = () => {};
let submissions = 0;
const live = useLive({
  wrapDomain: (d) => ({
    ...d,
    submit: async (p, runId, answers, opts) => {
      beforeSubmit(submissions++);
      return d.submit(p, runId, answers, opts);
    },
  }),
});
const busy = () =>
  new EdgeError(
    "server_busy",
    "the server is stopping: post it again",
    { stopping: true },
    { "retry-after": "1" },
  );

/** A proxy to the live server that cuts the connection of the submissions `cut` names (a network error). */
let cut: (n: number) => boolean = () => false;
/**
 * What every finalize gets while set: its connection cut (a network error outside the submissions), or a
 * gateway's HTML 502 page (a reverse proxy while the service restarts, probe38 V-F4).
 */
let finalizeFault: "cut" | "gateway" | null = null;
let proxied = 0;
let proxy: Server;
let proxyUrl: string;
let slug: string;
beforeAll(async () => {
  slug = (await publishCities(live.url, 8, "interrupt")).slug;
  proxy = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      if (req.method === "POST" && req.url!.endsWith("/finalize") && finalizeFault === "gateway") {
        res.writeHead(502, { "content-type": "text/html" });
        res.end("<html><body><h1>502 Bad Gateway</h1></body></html>");
        return;
      }
      if (
        req.method === "POST" &&
        ((req.url!.endsWith("/submissions") && cut(proxied++)) ||
          (req.url!.endsWith("/finalize") && finalizeFault === "cut"))
      ) {
        req.socket.destroy();
        return;
      }
      const body = Buffer.concat(chunks);
      const headers: Record<string, string> = {};
      for (const [h, v] of Object.entries(req.headers))
        if (!["host", "connection", "content-length", "transfer-encoding"].includes(h) && v !== undefined)
          headers[h] = String(v);
      fetch(`${live.url}${req.url}`, {
        method: req.method!,
        headers,
        ...(body.length > 0 ? { body } : {}),
      }).then(
        async (r) => {
          res.writeHead(r.status, { "content-type": r.headers.get("content-type") ?? "application/json" });
          res.end(Buffer.from(await r.arrayBuffer()));
        },
        () => req.socket.destroy(),
      );
    });
  });
  await new Promise<void>((r) => proxy.listen(0, "127.0.0.1", r));
  const a = proxy.address();
  proxyUrl = `http://127.0.0.1:${typeof a === "object" && a ? a.port : 0}`;
});
afterAll(async () => {
  await new Promise((r) => proxy.close(r));
});

/** `run` of a new account's agent through `server`; the key from the environment. */
async function run(server: string, name: string) {
  const me = await register(live.url, name);
  const store = mkdtempSync(join(tmpdir(), "bb-remote-int-"));
  const env = { BENCH_BOUNTY_API_KEY: me.key };
  const r = await runCli(
    ["run", slug, "--server", server, "--store", store, "--no-progress"].concat([
      "--agent",
      `node ${AGENT}`,
      "--agent-id",
      me.agent_id,
    ]),
    env,
  );
  return { r, me, env, store };
}

/** What a run whose final finalize got no answer says (it may be finalized already; probe38 W-N3). */
const FINALIZE_UNANSWERED =
  /finalize got no answer, so it may be finalized already; if not, it stays in progress \(attempt 1 is not used up\); once the cause is gone, resume it: it finalizes the run, or says it is finalized:\n/;

/** The printed resume line (alone on its line) and its run id. */
function resumeLine(stderr: string): { line: string; runId: string } {
  const m = /\n {2}(\S+ resume (run-[0-9a-f]+) [^\n]*)\n([^\n]*)\n/.exec(stderr);
  expect(m, stderr).not.toBeNull();
  // no key word: it put the key in the resume's arguments, read by every local user in ps (probe40 V-F6);
  // the command reads BENCH_BOUNTY_API_KEY itself, as the next line says
  expect(m![1]).not.toContain("--api-key");
  expect(m![3]).toBe(
    "  (run it where BENCH_BOUNTY_API_KEY holds your API key, exported: the key is not printed)",
  );
  return { line: m![1]!, runId: m![2]! };
}

describe("a remote run interrupted by the server", { timeout: 120_000 }, () => {
  it("a 503 server_busy with Retry-After is posted again and the run finishes", async () => {
    submissions = 0;
    beforeSubmit = (n) => {
      if (n === 2) throw busy();
    };
    const { r } = await run(live.url, "busy-once");
    beforeSubmit = () => {};
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ score_public: "1.0000", outcomes: { answered: 8 } });
    expect(submissions).toBe(9); // 8 answers, one of them posted twice
  });

  it("503 past its retries: exit 1 with the resume line; the run stays in progress and the pasted line finishes it", async () => {
    submissions = 0;
    beforeSubmit = (n) => {
      if (n >= 2) throw busy();
    };
    const { r, me, env, store } = await run(live.url, "busy-always");
    beforeSubmit = () => {};
    expect(r.code).toBe(1);
    expect(submissions).toBe(2 + 4); // the third answer posted 4 times (3 retries), nothing after
    expect(r.stderr).toMatch(/server is stopping: post it again\n/);
    expect(r.stderr).toMatch(
      /stays in progress \(attempt 1 is not used up\); once the cause is gone, resume it:\n/,
    );
    const { line, runId } = resumeLine(r.stderr);
    expect(line).toContain(`--store ${store} --server ${live.url}`);
    const before = await call(live.url, "GET", `/api/v1/benchmarks/runs/${runId}`, { key: me.key });
    expect(before.json.status).toBe("in_progress");
    const resumed = await runCli(pastedArgs(line, env), env);
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(JSON.parse(resumed.stdout)).toMatchObject({ run_id: runId, score_public: "1.0000" });
  });

  /**
   * A run through the proxy while `cutting` cuts connections: exit 1 with the network_error and the resume
   * line, the run left in progress, and the pasted line finishes it.
   */
  async function cutThenResume(
    name: string,
    cutting: { on(): void; off(): void },
    code: RegExp = /network_error/,
    said: RegExp = /stays in progress \(attempt 1 is not used up\); once the cause is gone, resume it:\n/,
  ): Promise<void> {
    cutting.on();
    const { r, me, env } = await run(proxyUrl, name);
    cutting.off();
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(code);
    expect(r.stderr).toMatch(said);
    const { line, runId } = resumeLine(r.stderr);
    const before = await call(live.url, "GET", `/api/v1/benchmarks/runs/${runId}`, { key: me.key });
    expect(before.json.status).toBe("in_progress");
    const resumed = await runCli(pastedArgs(line, env), env);
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(JSON.parse(resumed.stdout)).toMatchObject({ run_id: runId, score_public: "1.0000" });
  }

  it("a network error at a submission: exit 1 with the resume line, and the pasted line finishes the run", async () => {
    proxied = 0;
    await cutThenResume("net-cut", { on: () => (cut = (n) => n === 3), off: () => (cut = () => false) });
  });

  it("a network error at the final finalize: exit 1 with the resume line, and the pasted line finalizes the run", async () => {
    await cutThenResume(
      "net-cut-finalize",
      { on: () => (finalizeFault = "cut"), off: () => (finalizeFault = null) },
      /network_error/,
      FINALIZE_UNANSWERED,
    );
  });

  it("a gateway's HTML 502 at the final finalize: exit 1 with the resume line, and the pasted line finalizes the run (probe38 V-F4)", async () => {
    await cutThenResume(
      "gateway-finalize",
      { on: () => (finalizeFault = "gateway"), off: () => (finalizeFault = null) },
      /http_502/,
      FINALIZE_UNANSWERED,
    );
  });
});
