/**
 * The commands the Hardhat tasks print (`pasteableTask`): probe35 V-F2: run from outside the clone (with
 * `--config`), the printed `npx hardhat ...` pasted there would make npx ask the public registry for a
 * package named `hardhat`; the line now goes to the clone first, and names a relative deployment file
 * absolutely.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { expect } from "chai";
import { pasteableTask, profileOf } from "../lib/network";

const ROOT = resolve(__dirname, "..", "..");

describe("pasteableTask: a printed Hardhat command", function () {
  const cwd = process.cwd();
  // the suite's other files set these for their nodes: each test here states its own
  const saved = {
    BENCH_BOUNTY_LOCAL_DEPLOYMENT: process.env.BENCH_BOUNTY_LOCAL_DEPLOYMENT,
    LOCAL_RPC_URL: process.env.LOCAL_RPC_URL,
  };
  beforeEach(function () {
    delete process.env.LOCAL_RPC_URL;
  });
  afterEach(function () {
    process.chdir(cwd);
    for (const [name, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  });

  it("is bare `npx hardhat ...` in the clone (or under it)", function () {
    delete process.env.BENCH_BOUNTY_LOCAL_DEPLOYMENT;
    const base = profileOf("base")!;
    process.chdir(ROOT);
    expect(pasteableTask(base, "bounty:status", ["--id", "7"])).to.equal(
      "npx hardhat bounty:status --network base --id 7",
    );
    process.chdir(join(ROOT, "deploy"));
    expect(pasteableTask(base, "bounty:status", ["--id", "7"])).to.equal(
      "npx hardhat bounty:status --network base --id 7",
    );
  });

  it("goes to the clone first when run from elsewhere, and works pasted there", function () {
    this.timeout(120_000);
    const elsewhere = mkdtempSync(join(tmpdir(), "bb-hardhat-elsewhere-"));
    process.chdir(elsewhere);
    process.env.BENCH_BOUNTY_LOCAL_DEPLOYMENT = "my-deployment.json";
    const line = pasteableTask(profileOf("localhost")!, "bounty:status", ["--id", "7"]);
    expect(line).to.equal(
      `cd ${ROOT} && BENCH_BOUNTY_LOCAL_DEPLOYMENT=${join(elsewhere, "my-deployment.json")} npx hardhat bounty:status --network localhost --id 7`,
    );
    // pasted in that directory: the clone's hardhat answers (its task help; no chain needed)
    const out = execFileSync(
      "sh",
      ["-c", line.replace(" bounty:status ", " help bounty:status ").split(" --network")[0]!],
      {
        cwd: elsewhere,
        encoding: "utf8",
      },
    );
    expect(out).to.match(/bounty:status/);
  });
});
