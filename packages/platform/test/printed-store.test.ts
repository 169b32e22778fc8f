/**
 * Printed commands on a PostgreSQL store (probe17 B-F3): `resume` and the receipt anchor's retry name
 * `--store DIR`, which alone means SQLite; pasted where `DATABASE_URL` is unset they looked for a SQLite
 * store. The printed line says `DATABASE_URL` must be set, naming the database, never the password.
 */
import { resolve } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { anchorRetryCommand, invokedAs, type StoreOpts } from "../src/cli/common.js";
import { resumeCommand } from "../src/cli/run-commands.js";

const PG = "postgresql://alice:s3cret-pw@db.example:6543/bounties";
const opts = { store: "./.bench-bounty", chainId: "31337" } as unknown as StoreOpts;

describe("printed commands on a PostgreSQL store", () => {
  afterEach(() => vi.unstubAllEnvs());

  it("say DATABASE_URL must be set, naming host:port/db and never the password", () => {
    vi.stubEnv("DATABASE_URL", PG);
    vi.stubEnv("BENCH_BOUNTY_API_KEY", undefined);
    for (const line of [
      resumeCommand("run-1", { store: "./.bench-bounty", withKey: false }),
      anchorRetryCommand("bench-1", opts),
    ]) {
      expect(line).toMatch(/with DATABASE_URL set .*postgresql db\.example:6543\/bounties/);
      expect(line).not.toContain("s3cret-pw");
      expect(line).not.toContain("alice");
    }
  });

  it("add nothing on a SQLite store or for a remote run", () => {
    vi.stubEnv("DATABASE_URL", undefined);
    expect(resumeCommand("run-1", { store: "s", withKey: false })).not.toContain("DATABASE_URL");
    expect(anchorRetryCommand("bench-1", opts)).not.toContain("DATABASE_URL");
    vi.stubEnv("DATABASE_URL", PG);
    expect(
      resumeCommand("run-1", { store: "s", server: "http://127.0.0.1:1", withKey: false }),
    ).not.toContain("DATABASE_URL");
  });
});

describe("the printed resume of a run with --agent-hide (probe35 A-F1)", () => {
  it("names each hidden path (the flags' and the variable's), so the resumed agents do not see them either", () => {
    vi.stubEnv("DATABASE_URL", undefined);
    expect(
      resumeCommand("run-1", {
        store: "s",
        server: "http://127.0.0.1:1",
        withKey: false,
        agentHide: ["/srv/bb/service", "/srv/my keys"],
      }),
    ).toBe(
      `${invokedAs()} resume run-1 --store ${resolve("s")} --server http://127.0.0.1:1 --agent-hide /srv/bb/service --agent-hide '/srv/my keys'`,
    );
  });
});

describe("a printed command's store (probe35 V-F4)", () => {
  afterEach(() => vi.unstubAllEnvs());

  it("is absolute, so the command works pasted in another directory", () => {
    vi.stubEnv("DATABASE_URL", undefined);
    vi.stubEnv("BENCH_BOUNTY_API_KEY", undefined);
    const absolute = resolve("./.bench-bounty");
    expect(resumeCommand("run-1", { store: "./.bench-bounty", withKey: false })).toBe(
      `${invokedAs()} resume run-1 --store ${absolute}`,
    );
    expect(anchorRetryCommand("bench-1", opts).split("\n")[0]).toContain(
      ` anchor bench-1 --store ${absolute}`,
    );
  });
});

describe("the printed resume of a run made with a key (probe40 B-F1, V-F6)", () => {
  afterEach(() => vi.unstubAllEnvs());

  it("names no --api-key and says to run it with BENCH_BOUNTY_API_KEY exported, whatever the key's source, local or remote", () => {
    vi.stubEnv("DATABASE_URL", undefined);
    // a key word in the command put the whole key in the resume's arguments, read by every local user in
    // ps (probe40 V-F6): the command reads the variable itself
    const note = "  (run it where BENCH_BOUNTY_API_KEY holds your API key, exported: the key is not printed)";
    expect(resumeCommand("run-1", { store: "s", withKey: true })).toBe(
      `${invokedAs()} resume run-1 --store ${resolve("s")}\n${note}`,
    );
    expect(resumeCommand("run-1", { store: "s", server: "http://127.0.0.1:1", withKey: true })).toBe(
      `${invokedAs()} resume run-1 --store ${resolve("s")} --server http://127.0.0.1:1\n${note}`,
    );
  });
});
