/**
 * D3-F15: an agent may need a secret of its own (a model API key). `run --agent-env NAME` passes that one
 * variable of the runner's environment, by name; the runner's own secrets are refused, the value is never
 * stored in the checkpoint, and a resume passes the same names again from its own environment.
 */
import Database from "better-sqlite3";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { passedAgentEnv } from "../src/agent-process.js";
import { seattlePublishArgs } from "../src/testing.js";
import { environNotUtf8 } from "../src/utf8.js";
import { cleanup, cliAccount, runCli, tempDir } from "./helpers.js";

afterEach(cleanup);

const AGENT = fileURLToPath(new URL("./fixtures/agent.mjs", import.meta.url));

describe("passedAgentEnv (run --agent-env)", () => {
  it("passes exactly the named variables with their values", () => {
    expect(
      passedAgentEnv(["MODEL_KEY", "Other_1"], { MODEL_KEY: "sk-1", Other_1: "", PATH: "/bin" }),
    ).toEqual({
      MODEL_KEY: "sk-1",
      Other_1: "",
    });
  });

  it.each([
    ["BENCH_BOUNTY_PRIVATE_KEY", /runner's own secrets/],
    ["bench_bounty_api_key", /runner's own secrets/],
    ["DATABASE_URL", /runner's own secrets/],
    ["DEPLOYER_PRIVATE_KEY", /runner's own secrets/],
    ["HOME", /runner's own secrets/],
    ["PGPASSWORD", /runner's own secrets/],
    ["PGSERVICEFILE", /runner's own secrets/],
    ["BASE_RPC_URL", /runner's own secrets/],
    ["PONDER_DATABASE_URL", /runner's own secrets/],
    ["1ABC", /not an environment variable name/],
    ["A=B", /not an environment variable name/],
    ["UNSET_VAR", /is not set/],
  ])("refuses %s naming --agent-env", (name, why) => {
    const from = { [name]: "v", BENCH_BOUNTY_PRIVATE_KEY: "0x" + "ee".repeat(32) };
    if (name === "UNSET_VAR") delete from[name];
    let err: unknown;
    try {
      passedAgentEnv([name], from);
    } catch (e) {
      err = e;
    }
    expect(err).toMatchObject({ code: "invalid_option", details: { field: "agent-env", name } });
    expect((err as Error).message).toMatch(why);
    expect((err as Error).message).not.toContain("ee".repeat(32));
  });
});

// probe33 B-F11: a value whose bytes are not UTF-8 reached the agent with U+FFFD in their place, silently
describe("passedAgentEnv: a value that is not UTF-8 (probe33 B-F11)", () => {
  const environ = (...entries: Buffer[]) => Buffer.concat(entries.flatMap((e) => [e, Buffer.from([0])]));

  it("environNotUtf8 names the variables whose raw values are not UTF-8", () => {
    const raw = environ(
      Buffer.concat([Buffer.from("MYSECRET=ab"), Buffer.from([0xff]), Buffer.from("cd")]),
      Buffer.from("OK=caf\u00e9"),
      Buffer.concat([Buffer.from("SURR="), Buffer.from([0xed, 0xa0, 0x80])]),
      Buffer.from("EMPTY="),
    );
    expect([...environNotUtf8(raw)].sort()).toEqual(["MYSECRET", "SURR"]);
  });

  it("refuses such a variable naming it and --agent-env; a UTF-8 one passes", () => {
    const raw = environ(Buffer.concat([Buffer.from("MYSECRET=ab"), Buffer.from([0xff]), Buffer.from("cd")]));
    const from = { MYSECRET: "ab\ufffdcd", OTHER: "caf\u00e9" };
    let err: unknown;
    try {
      passedAgentEnv(["MYSECRET"], from, environNotUtf8(raw));
    } catch (e) {
      err = e;
    }
    expect(err).toMatchObject({
      code: "invalid_option",
      details: { field: "agent-env", name: "MYSECRET" },
      message:
        "--agent-env MYSECRET: its value is not UTF-8: set it as UTF-8 text (its bytes would reach the agent as U+FFFD, another value)",
    });
    expect(passedAgentEnv(["OTHER"], from, environNotUtf8(raw))).toEqual({ OTHER: "caf\u00e9" });
  });
});

describe("run --agent-env on the CLI", () => {
  it("the agent gets the variable; the checkpoint keeps its name only; resume passes it again", async () => {
    const store = tempDir();
    const pub = await runCli(...seattlePublishArgs("seattle"), "--store", store);
    expect(pub.code, pub.err).toBe(0);
    const key = await cliAccount(store, "env-owner");
    const args = ["run", "seattle", "--store", store, "--api-key", key, "--agent", `node ${AGENT}`];
    const saved = { ...process.env };
    try {
      // the fixture agent reads AGENT_MODE: "exit" makes it fail before any answer (no attempt used)
      process.env.AGENT_MODE = "exit";
      const plain = await runCli(...args, "--agent-id", "plain", "--no-progress");
      expect(plain.code, plain.err).toBe(0); // without --agent-env the agent never sees AGENT_MODE
      expect(JSON.parse(plain.out)).toMatchObject({ outcomes: { answered: 15 } });

      const failed = await runCli(...args, "--agent-id", "env", "--agent-env", "AGENT_MODE", "--no-progress");
      expect(failed.code).toBe(1);
      expect(failed.err).toMatch(/agent exited with status 3/);
      const runId = /bench-bounty resume (run-[0-9a-f]{16})/.exec(failed.err)?.[1];
      expect(runId).toBeDefined();
      const checkpoint = readFileSync(join(store, "runs", `${runId}.json`), "utf8");
      expect(JSON.parse(checkpoint).agent).toMatchObject({ env_names: ["AGENT_MODE"] });
      expect(checkpoint).not.toContain('"exit"');

      // resume reads AGENT_MODE again from its own environment: unset, it refuses naming it; "ok", it answers
      delete process.env.AGENT_MODE;
      const unset = await runCli("resume", runId!, "--store", store, "--api-key", key, "--no-progress");
      expect(unset.code).toBe(1);
      expect(unset.err).toMatch(/--agent-env AGENT_MODE: is not set/);
      process.env.AGENT_MODE = "ok";
      const resumed = await runCli("resume", runId!, "--store", store, "--api-key", key, "--no-progress");
      expect(resumed.code, resumed.err).toBe(0);
      expect(JSON.parse(resumed.out)).toMatchObject({ run_id: runId, outcomes: { answered: 15 } });

      // the runner's own secret is refused before anything is written: no agent registered, no run
      process.env.BENCH_BOUNTY_AUTHOR_KEY = "0x" + "dd".repeat(32);
      const secret = await runCli(
        ...args,
        "--agent-id",
        "leaky",
        "--withdrawal-address",
        "0x00000000000000000000000000000000000000a1",
        "--agent-env",
        "BENCH_BOUNTY_AUTHOR_KEY",
      );
      expect(secret.code).toBe(1);
      expect(secret.err).toMatch(/^error: --agent-env BENCH_BOUNTY_AUTHOR_KEY: the runner's own secrets/m);
      expect(secret.err).not.toContain("dd".repeat(32));
      const db = new Database(join(store, "platform.sqlite"), { readonly: true });
      try {
        expect(db.prepare("SELECT count(*) AS n FROM agents WHERE agent_id = 'leaky'").get()).toEqual({
          n: 0,
        });
        expect(db.prepare("SELECT count(*) AS n FROM agents WHERE agent_id = 'env'").get()).toEqual({ n: 1 });
      } finally {
        db.close();
      }
    } finally {
      process.env = saved;
    }
  }, 120_000);
});
