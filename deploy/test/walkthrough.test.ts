/**
 * The "Author / winner walkthrough" of deploy/README.md, run line by line with
 * bash exactly as written, on a fresh local Base-profile node
 * (`BENCH_BOUNTY_DEVCHAIN=profile npx hardhat node`). Lines marked `# refused`
 * must exit 1 with an `Error:` line and mine nothing; every other line must
 * succeed. The README's promised figures are then checked on-chain, and the
 * working tree is as clean as before (`git status --porcelain` unchanged): the
 * local deployment goes to the git-ignored deploy/.local, never to the tracked
 * address book. Nothing is redirected, so this is what a user's run writes; a
 * developer's own deploy/.local/deployments.json is put back afterwards.
 */
import { execFile } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { expect } from "chai";
import { REPO_ROOT, rpc, startBareNode, type Run } from "./helpers";

const LOCAL_DEPLOYMENT = path.join(REPO_ROOT, "deploy", ".local", "deployments.json");

function walkthroughCommands(): { line: string; refused: boolean }[] {
  const readme = fs.readFileSync(path.join(REPO_ROOT, "deploy", "README.md"), "utf8");
  const block = /<!-- walkthrough:start -->\s*```sh\n([\s\S]*?)```\s*<!-- walkthrough:end -->/.exec(readme);
  if (!block) throw new Error("walkthrough block not found in deploy/README.md");
  return block[1]!
    .split("\n")
    .map((l) => l.trim())
    .filter((l) => l.startsWith("npx hardhat "))
    .map((line) => ({ line, refused: /#\s*refused\b/.test(line) }));
}

function bash(line: string, env: NodeJS.ProcessEnv): Promise<Run> {
  return new Promise((resolve, reject) => {
    execFile("bash", ["-c", line], { cwd: REPO_ROOT, env, timeout: 240_000 }, (error, stdout, stderr) => {
      if (error && typeof error.code !== "number") return reject(error);
      resolve({ code: error ? (error.code as number) : 0, stdout, stderr });
    });
  });
}

describe("deploy/README.md walkthrough, as written", function () {
  let node: { rpcUrl: string; stop: () => Promise<void> };
  let env: NodeJS.ProcessEnv;
  let statusBefore: string;
  let savedLocal: Buffer | undefined;
  const outputs: string[] = [];

  before(async function () {
    node = await startBareNode({ profile: true });
    env = { ...process.env, LOCAL_RPC_URL: node.rpcUrl };
    for (const k of [
      "DEPLOYER_PRIVATE_KEY",
      "BASE_RPC_URL",
      "BASE_SEPOLIA_RPC_URL",
      "HARDHAT_NETWORK",
      "BENCH_BOUNTY_ADDRESS_BOOK",
      "BENCH_BOUNTY_LOCAL_DEPLOYMENT",
    ])
      delete env[k];
    savedLocal = fs.existsSync(LOCAL_DEPLOYMENT) ? fs.readFileSync(LOCAL_DEPLOYMENT) : undefined;
    statusBefore = (await bash("git status --porcelain --untracked-files=all", env)).stdout;
  });
  after(async function () {
    await node?.stop();
    if (savedLocal) fs.writeFileSync(LOCAL_DEPLOYMENT, savedLocal);
    else fs.rmSync(LOCAL_DEPLOYMENT, { force: true });
  });

  it("has the commands in order, refusals marked", function () {
    const cmds = walkthroughCommands();
    expect(cmds.length).to.be.greaterThan(10);
    expect(cmds.filter((c) => c.refused).length).to.equal(6);
    // probe34 C-F3: every lock comes after the anchor of its commitment (a lock makes its root public)
    const firstLock = cmds.findIndex((c) => c.line.includes("bounty:lock") && !c.refused);
    const anchor = cmds.findIndex((c) => c.line.includes(" anchor ") && c.line.includes("--kind commitment"));
    expect(anchor).to.be.greaterThan(-1);
    expect(anchor).to.be.lessThan(firstLock);
    // probe35 C-F3: the award comes after the anchors of its rows' receipts
    const award = cmds.findIndex((c) => c.line.includes("bounty:award") && !c.refused);
    const receipts = cmds.filter((c, i) => i < award && / anchor .*--kind receipt$/.test(c.line));
    expect(receipts).to.have.length(3);
  });

  it("every command does what the README says", async function () {
    this.timeout(30 * 60_000); // about 25 hardhat runs: 3 minutes idle, far more on a loaded machine
    for (const { line, refused } of walkthroughCommands()) {
      const before = await rpc<string>(node.rpcUrl, "eth_blockNumber");
      const r = await bash(line, env);
      outputs.push(`$ ${line}\n${r.stdout}${r.stderr}`);
      if (refused) {
        expect(r.code, `${line}\n${r.stdout}${r.stderr}`).to.equal(1);
        expect(r.stderr).to.match(/^Error: /m);
        expect(r.stderr).not.to.match(/^\s+at /m);
        expect(await rpc<string>(node.rpcUrl, "eth_blockNumber"), "a refusal mines nothing").to.equal(before);
      } else {
        expect(r.code, `${line}\n${r.stdout}${r.stderr}`).to.equal(0);
      }
    }
    const all = outputs.join("\n");
    // probe34 C-F3: the lock on a root not anchored as a commitment is refused, naming the anchor command
    expect(all).to.match(
      /^Error: Root 0xc1fc6f71f5915261139519b52e9a2cec463a6d20cdfdd39ca7ccaf19c613e46a \(from deploy\/examples\/test-set\.json \(committed here\)\) is not anchored as a commitment in AnchorRegistry 0x[0-9a-fA-F]{40}: the lock makes it public, .*Nothing was sent\. Anchor it first, then lock again:$/m,
    );
    expect(all).to.match(
      /^ {2}LOCAL_RPC_URL=\S+ npx hardhat anchor --network localhost --from 0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC --digest 0xc1fc6f71f5915261139519b52e9a2cec463a6d20cdfdd39ca7ccaf19c613e46a --kind commitment$/m,
    );
    expect(all).to.include(
      "anchor        anchored as a commitment by 0x70997970C51812dc3A010C7d01b50e0d17dc79C8 in block ",
    );
    expect(all).to.include("Bounty 1 locked: Funded with 100.000000 USDC.");
    expect(all).to.include("EIP-2612 permit + createAndFundWithPermit (1 transaction)");
    expect(all).to.include("The lock of bounty 1 verifies.");
    expect(all).to.include("Anchor check passed.");
    expect(all).to.include("the award window is not open yet");
    expect(all).to.include('Winner "bravo" (place 2) has no withdrawal address');
    // probe35 C-F3: the award of rows whose receipts are not anchored is refused, naming the anchor
    // command; the printed command is the walkthrough's next line
    expect(all).to.match(
      /^Error: --rank-derivation deploy\/examples\/rank-derivation\.json \$\.rank_derivation\.rows\[0\]\.receipt_hash 0x(11){32} \(agent "alpha", rank 1\) is not anchored in AnchorRegistry 0x[0-9a-fA-F]{40} \(3 of the 3 rows' receipt hashes are not anchored: anchor each the same way\): SPEC 9 receipt_anchors .*Refusing to award; nothing was sent\. Anchor it first, then award again:$/m,
    );
    const anchorLine = /then award again:\n {2}(.*)$/m.exec(all)?.[1];
    expect(anchorLine).to.match(new RegExp(`^LOCAL_RPC_URL=${node.rpcUrl} npx hardhat anchor `));
    expect(walkthroughCommands().map((c) => c.line)).to.include(
      anchorLine!.replace(/^LOCAL_RPC_URL=\S+ /, ""),
    );
    expect(all).to.match(/winner 1 {8}0x90F79bf6EB2c4f870365E785982E1f101E93b906 {2}62\.500000 USDC/);
    expect(all).to.match(/winner 2 {8}0x15d34AAf54267DB7D7c367839AAf71A00a2C6A65 {2}37\.500000 USDC/);
    // The claim command bounty:credits prints is the next line of the walkthrough, as pasted.
    // (the node listens on a free port: the line names it, as it must to work when pasted)
    const claimLine = /^Claim with:\n {2}(.*)$/m.exec(all)?.[1];
    expect(claimLine).to.match(new RegExp(`^LOCAL_RPC_URL=${node.rpcUrl} npx hardhat `));
    const printed = claimLine!.replace(/^LOCAL_RPC_URL=\S+ /, "");
    expect(walkthroughCommands().map((c) => c.line)).to.include(printed);
    // probeD2 F4: bounty:lock's `check` line works pasted into a shell that has no LOCAL_RPC_URL
    const check = /^Check it with:\n {2}(.*)$/m.exec(all)?.[1];
    // review28 A-F8: it declares the author, so the author is checked too
    expect(check).to.equal(
      `LOCAL_RPC_URL=${node.rpcUrl} npx hardhat bounty:status --network localhost --id 1 --author 0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC`,
    );
    const pasted = await bash(check!, { ...env, LOCAL_RPC_URL: undefined });
    expect(pasted.code, pasted.stdout + pasted.stderr).to.equal(0);
    expect(pasted.stdout).to.include("✓ author is the declared 0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC");
    expect(pasted.stdout).not.to.include("author not checked");
    expect(pasted.stdout).to.include("The lock of bounty 1 verifies.");
    expect(all).to.include(
      "Claimed bounty 1: 62.500000 USDC from 0x90F79bf6EB2c4f870365E785982E1f101E93b906 to 0x90F79bf6EB2c4f870365E785982E1f101E93b906",
    );
    expect(all).to.match(/^Error: claimWithSig reverted with \w+\(.*expired/im);
    expect(all).to.include(
      "Claimed bounty 1: 37.500000 USDC from 0x15d34AAf54267DB7D7c367839AAf71A00a2C6A65 to 0x9965507D1a55bcC2695C58ba16FB37d819B0A4dc",
    );
    expect(all).to.include("gas paid by 0x70997970C51812dc3A010C7d01b50e0d17dc79C8");
    expect(all).to.include(
      "Reclaimed bounty 2: 25.000000 USDC to 0x976EA74026E726554dB657fA54763abd0C3a0aa9",
    );
    expect(all).to.include("Pending -> Funded -> [Awarded] | Reclaimed");
    expect(all).to.include("every credit has been claimed (status Awarded)");
    expect(all).not.to.include("✓ the pool is locked (status Awarded)");
  });

  it("leaves the working tree as it found it (git status --porcelain unchanged)", async function () {
    const after = await bash("git status --porcelain --untracked-files=all", env);
    expect(after.code).to.equal(0);
    expect(after.stdout).to.equal(statusBefore);
    // The local deployment was recorded, in the git-ignored file.
    const entry = JSON.parse(fs.readFileSync(LOCAL_DEPLOYMENT, "utf8")) as { network: string };
    expect(entry.network).to.equal("localhost");
    expect((await bash(`git check-ignore -q ${LOCAL_DEPLOYMENT}`, env)).code).to.equal(0);
  });

  it("left the balances the walkthrough promises", async function () {
    const usdc = "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913";
    const balanceOf = async (a: string) =>
      BigInt(
        await rpc<string>(node.rpcUrl, "eth_call", [
          { to: usdc, data: "0x70a08231" + a.slice(2).toLowerCase().padStart(64, "0") },
          "latest",
        ]),
      );
    expect(await balanceOf("0x90F79bf6EB2c4f870365E785982E1f101E93b906")).to.equal(62_500_000n);
    expect(await balanceOf("0x9965507D1a55bcC2695C58ba16FB37d819B0A4dc")).to.equal(37_500_000n);
    expect(await balanceOf("0x15d34AAf54267DB7D7c367839AAf71A00a2C6A65")).to.equal(0n);
    // 1000 minted - 100 awarded - 25 locked (reclaimed to account #6)
    expect(await balanceOf("0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC")).to.equal(875_000_000n);
    expect(await balanceOf("0x976EA74026E726554dB657fA54763abd0C3a0aa9")).to.equal(25_000_000n);
    // The platform (account #1) relayed bravo's claim but received nothing.
    expect(await balanceOf("0x70997970C51812dc3A010C7d01b50e0d17dc79C8")).to.equal(0n);
  });
});
