/**
 * The root README's commands, as printed: its author / winner walkthrough is the block that
 * `walkthrough.test.ts` runs on a fresh node (the same lines, byte for byte), and the CLI
 * commands it shows for the built tree run as written from the repo root.
 */
import { execFileSync, spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { expect } from "chai";
import { REPO_ROOT } from "./helpers";

/** The text between the walkthrough markers of a README. */
function walkthroughBlock(file: string): string {
  const text = fs.readFileSync(path.join(REPO_ROOT, file), "utf8");
  const m = /<!-- walkthrough:start -->([\s\S]*?)<!-- walkthrough:end -->/.exec(text);
  if (!m) throw new Error(`no walkthrough block in ${file}`);
  return m[1]!;
}

describe("root README.md, as written", function () {
  this.timeout(120_000);

  it("shows exactly the walkthrough that deploy/test/walkthrough.test.ts runs", function () {
    const root = walkthroughBlock("README.md");
    const deploy = walkthroughBlock(path.join("deploy", "README.md"));
    expect(root, "README.md's walkthrough differs from deploy/README.md's (the tested one)").to.equal(deploy);
    expect(root).to.match(/npx hardhat bounty:reclaim --network localhost .* --id 2 --to 0x[0-9a-fA-F]{40}/);
    expect(root, "no shortened addresses").not.to.match(/0x[0-9a-fA-F]{2,8}\.\.\./);
    expect(root, "no <placeholders>").not.to.match(/<[a-z-]+>/);
  });

  it("has no shortened address anywhere a command is shown", function () {
    const text = fs.readFileSync(path.join(REPO_ROOT, "README.md"), "utf8");
    for (const block of text.match(/```sh\n[\s\S]*?```/g) ?? []) {
      expect(block, block).not.to.match(/0x[0-9a-fA-F]{2,8}\.\.\./);
    }
  });

  it("every README's set-up builds with the root's build, never `pnpm -r build` (which skips the contracts' compile: probe35 B-F7)", function () {
    const readmes = [
      "README.md",
      ...fs.readdirSync(path.join(REPO_ROOT, "packages")).map((p) => path.join("packages", p, "README.md")),
    ];
    for (const file of readmes.filter((f) => fs.existsSync(path.join(REPO_ROOT, f)))) {
      const text = fs.readFileSync(path.join(REPO_ROOT, file), "utf8");
      expect(text, file).not.to.match(/pnpm@12\.4\.2 -r (run )?build`/);
      for (const line of text.split("\n").filter((l) => /npx pnpm@12\.4\.2 install/.test(l)))
        expect(line, `${file}: ${line}`).to.match(/npx pnpm@12\.4\.2 build/);
    }
  });

  it("every serve command on a local node passes --local-chain (probe32 A-F2)", function () {
    // a local node has Base's chain id 8453: without the flag the web pages link its transactions to basescan
    const commands = [path.join("README.md"), path.join("packages", "server", "README.md")].flatMap((file) =>
      [
        ...fs
          .readFileSync(path.join(REPO_ROOT, file), "utf8")
          .replace(/\\\n/g, " ")
          .matchAll(/^.*bench-bounty serve .*--rpc-url http:\/\/(?:127\.0\.0\.1|localhost)[:/].*$/gm),
      ].map((m) => ({ file, line: m[0] })),
    );
    expect(commands.map((c) => c.file)).to.have.members([
      "README.md",
      path.join("packages", "server", "README.md"),
    ]);
    for (const { file, line } of commands) expect(line, `${file}: ${line}`).to.match(/ --local-chain\b/);
  });

  // probe35 B-F1: `npx <name>` outside the clone asks the public npm registry for a package of that name
  // (bench-bounty is unpublished: anyone may publish it) and runs it with the API key in its environment
  it("no README, doc or program text tells anyone to run the CLI through `npx` by its bare name (the clone's bin by path instead)", function () {
    const npxBin = new RegExp(["\\bnpx", "(?:\\s+--?[\\w=-]+)*", "\\s+bench-bounty(?![\\w/@-])"].join(""));
    const self = path.relative(REPO_ROOT, __filename);
    const files = execFileSync("git", ["ls-files", "-z"], { cwd: REPO_ROOT, encoding: "utf8" })
      .split("\0")
      .filter((f) => /\.(?:md|ts|tsx|mjs|cjs|js|json|sh|html)$|^bin\//.test(f) && f !== self);
    expect(files, "the repository's files").to.include.members([
      "README.md",
      path.join("packages", "server", "README.md"),
      path.join("packages", "platform", "src", "cli", "common.ts"),
    ]);
    const hits = files.flatMap((f) => {
      const abs = path.join(REPO_ROOT, f);
      if (!fs.existsSync(abs)) return [];
      return fs
        .readFileSync(abs, "utf8")
        .split("\n")
        .flatMap((line, i) => (npxBin.test(line) ? [`${f}:${i + 1}: ${line.trim()}`] : []));
    });
    expect(hits, hits.join("\n")).to.deep.equal([]);
  });

  it("./bin/bench-bounty --help lists the commands the README names", function () {
    const out = execFileSync(path.join(REPO_ROOT, "bin", "bench-bounty"), ["--help"], {
      cwd: REPO_ROOT,
      encoding: "utf8",
    });
    for (const cmd of ["serve", "run", "publish", "leaderboard", "award", "verify", "verify-receipt"]) {
      expect(out, cmd).to.match(new RegExp(`\\n\\s+${cmd}\\b`));
    }
  });

  it("./bin/bench-bounty verify PACK (the offline form) runs as written on a vector pack", function () {
    const pack = path.join("spec", "vectors", "packs", "small.json");
    const r = spawnSync(path.join(REPO_ROOT, "bin", "bench-bounty"), ["verify", pack], {
      cwd: REPO_ROOT,
      encoding: "utf8",
    });
    expect(r.status, r.stderr).to.equal(0);
    expect(r.stdout).to.contain("pack_hash");
  });

  it("the remote runner as README.md and demo/README.md give it parses as written (probe29 A-F7)", function () {
    const forms = ["README.md", path.join("demo", "README.md")].flatMap((file) =>
      [
        ...fs
          .readFileSync(path.join(REPO_ROOT, file), "utf8")
          .matchAll(/`(bench-bounty run [^`]*--server[^`]*)`/g),
      ].map((m) => ({ file, form: m[1]! })),
    );
    expect(forms.map((f) => f.file)).to.include.members(["README.md", path.join("demo", "README.md")]);
    // the placeholders filled in; the server is a closed port, so a command that parses fails connecting
    const fill: Record<string, string> = {
      SLUG: "some-bench",
      URL: "http://127.0.0.1:1",
      CMD: "node agent.mjs",
      ID: "a1",
    };
    for (const { file, form } of forms) {
      const args = form
        .split(/\s+/)
        .slice(1)
        .map((w) => fill[w] ?? w);
      const r = spawnSync(path.join(REPO_ROOT, "bin", "bench-bounty"), args, {
        cwd: REPO_ROOT,
        encoding: "utf8",
        env: { ...process.env, BENCH_BOUNTY_API_KEY: "bb_readme_test_key" },
      });
      expect(r.stderr, `${file}: ${form}`).not.to.match(
        /required option|unknown option|missing required argument/,
      );
      expect(r.stderr, `${file}: ${form}`).to.contain("127.0.0.1:1");
    }
  });
});
