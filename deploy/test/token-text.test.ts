/**
 * probe21 B-F4: the tasks printed a token's on-chain `symbol()` raw. Anyone can create a bounty with a
 * token of their own and award its credit to any address, so a symbol carrying `ESC [2K` (erase the line),
 * `ESC [8m` (conceal what follows), an OSC title (`ESC ] 0 ; ... BEL`) or a C1 CSI wrote a fake green credit
 * line with a fake claim command on the winner's terminal (`bounty:credits`, also claim, status, award,
 * reclaim, lock --token). A token's on-chain text is now shown with every control character escaped and
 * its length bounded (`chainText`, deploy/lib/format.ts), wherever it is read (`tokenAt`, `tokenDisplay`).
 */
import fs from "node:fs";
import path from "node:path";
import { expect } from "chai";
import { Interface, getAddress, keccak256, toBeHex, zeroPadValue } from "ethers";
import type { DevChain } from "@bench-bounty/devchain";
import { TaskError, decodeRevert } from "../lib/errors";
import { MAX_SYMBOL_CHARS, tokenSymbolText } from "../lib/text";
import {
  expectOk,
  expectRefusal,
  localDeploymentFile,
  localRunner,
  lockCommand,
  REPO_ROOT,
  rpc,
  startChain,
  tempDir,
} from "./helpers";

/** What a terminal acts on, but the line feeds and tabs of the task's own lines. */
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u2028-\u202e\u2066-\u2069]/;
/** A symbol that erases the line, paints a fake credit, sets the window title and conceals the rest; then long. */
const EVIL_SYMBOL =
  "USDC\u001b[2K\r  \u001b[1;32mbounty 1  1000000.000000 USDC  -- claim now: npx hardhat bounty:claim --to 0xdEaD\u001b[0m" +
  "\u001b]0;pwned\u0007\u009b8m\u202e\u001b[8m" +
  "A".repeat(3000);

/** Storage slot of OpenZeppelin ERC20's `_symbol` (after _balances, _allowances, _totalSupply, _name). */
const SYMBOL_SLOT = 4n;

/** Writes `text` (ASCII here) as the Solidity `string` at `slot` of `address` (the long-string layout past 31 bytes). */
async function setStorageString(url: string, address: string, slot: bigint, text: string): Promise<void> {
  const bytes = Buffer.from(text, "utf8");
  const word = (v: bigint | Buffer) => (typeof v === "bigint" ? toBeHex(v, 32) : zeroPadValue(v, 32));
  await rpc(url, "hardhat_setStorageAt", [address, toBeHex(slot), word(BigInt(bytes.length) * 2n + 1n)]);
  const base = BigInt(keccak256(toBeHex(slot, 32)));
  for (let i = 0; i * 32 < bytes.length; i++) {
    const chunk = Buffer.alloc(32);
    bytes.copy(chunk, 0, i * 32, Math.min(bytes.length, i * 32 + 32));
    await rpc(url, "hardhat_setStorageAt", [
      address,
      toBeHex(base + BigInt(i)),
      `0x${chunk.toString("hex")}`,
    ]);
  }
}

describe("a token's on-chain symbol on the terminal (probe21 B-F4)", function () {
  let chain: DevChain;
  let dir: string;
  let run: ReturnType<typeof localRunner>;
  let token: `0x${string}`;
  const artifact = JSON.parse(
    fs.readFileSync(
      path.join(REPO_ROOT, "artifacts", "contracts", "test", "ReentrantToken.sol", "ReentrantToken.json"),
      "utf8",
    ),
  ) as { abi: unknown[]; bytecode: `0x${string}` };

  before(async function () {
    chain = await startChain();
    dir = tempDir();
    run = localRunner(chain, localDeploymentFile(dir, chain));
    const wallet = chain.wallet(0);
    const hash = await wallet.deployContract({ abi: artifact.abi, bytecode: artifact.bytecode });
    const receipt = await chain.publicClient.waitForTransactionReceipt({ hash });
    token = receipt.contractAddress!;
    await setStorageString(chain.rpcUrl, token, SYMBOL_SLOT, EVIL_SYMBOL);
  });
  after(async function () {
    await chain?.stop();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  /** The output shows the symbol's start with its controls escaped, nothing a terminal acts on, and not its 3000 A's. */
  function expectShownEscaped(text: string): void {
    expect(text, "no control character reaches the terminal").not.to.match(CONTROL);
    expect(text).to.include("USDC\\x1b[2K\\x0d");
    expect(text, "the symbol is cut").not.to.include("A".repeat(100));
  }

  /** `bounty:lock` with the evil token, paid by approve + createAndFund (the token has no permit). */
  async function lockArgs(): Promise<string[]> {
    return [...(await lockCommand(chain, dir)), "--token", token, "--approve"];
  }

  it("bounty:lock --token (a refusal and the lock) and bounty:status show it escaped and cut", async function () {
    const refused = await run(await lockArgs());
    expectRefusal(refused, /Insufficient .* balance/);
    expectShownEscaped(refused.stderr);

    const wallet = chain.wallet(0);
    const minted = await wallet.writeContract({
      address: token,
      abi: artifact.abi,
      functionName: "mint",
      args: [chain.accounts[0]!.address, 10n ** 18n],
    });
    await chain.publicClient.waitForTransactionReceipt({ hash: minted });
    const locked = expectOk(await run(await lockArgs()));
    expectShownEscaped(locked);
    const id = /Bounty (\d+) locked/.exec(locked)?.[1];
    expect(id, locked).to.be.a("string");

    const status = expectOk(await run(["bounty:status", "--id", id!, "--token", token]));
    expectShownEscaped(status);
    expect(status).to.include(`token         ${getAddress(token)} (USDC\\x1b[2K`);
  });
});

describe("other text a contract or an RPC chose (probe21 B-F4, the same class)", function () {
  it("a revert reason string is shown escaped and cut", function () {
    const reason = "nope\u001b]0;pwned\u0007\u001b[2K\rError: none" + "B".repeat(5000);
    const data = new Interface(["error Error(string)"]).encodeErrorResult("Error", [reason]);
    const e = decodeRevert({ data }, [new Interface(["function f()"])], "bounty:claim");
    expect(e).to.be.instanceOf(TaskError);
    expect(e.message).not.to.match(CONTROL);
    expect(e.message).to.match(
      /^bounty:claim reverted: nope\\x1b\]0;pwned\\x07\\x1b\[2K\\x0dError: noneB+\.\.\.\. /,
    );
    expect(e.message.length).to.be.below(400);
  });

  it("tokenSymbolText: a 5 MB symbol is cut to MAX_SYMBOL_CHARS, an empty one is 'tokens', USDC is USDC", function () {
    const shown = tokenSymbolText("\u009b31m".repeat(1_250_000));
    expect(shown.length).to.equal(MAX_SYMBOL_CHARS);
    expect(shown).to.match(/^(\\x9b31m)+.*\.\.\.$/);
    expect(tokenSymbolText("")).to.equal("tokens");
    expect(tokenSymbolText("USDC")).to.equal("USDC");
  });

  // probe22: the direction marks and invisible format characters were printed raw (they reorder or hide
  // what a line shows)
  it("direction marks, zero-width and soft-hyphen characters are escaped too", function () {
    expect(tokenSymbolText("US\u200fDC\u200e\u061c")).to.equal("US\\u{200f}DC\\u{200e}\\u{061c}");
    expect(tokenSymbolText("U\u200bS\ufeffD\u00adC")).to.equal("U\\u{200b}S\\u{feff}D\\xadC");
    expect(tokenSymbolText("USDC \u{1F600}")).to.equal("USDC \u{1F600}");
  });
});
