/**
 * probe16 B-F8: `bounty:claim --to`, `bounty:claim --relay --to`, `bounty:reclaim --to` and
 * `bounty:award --withdrawals` accepted the protocol's own contracts as recipients (a winner's USDC
 * sent to the AnchorRegistry, lost for good). The tasks now refuse them by the one rule the platform
 * applies to withdrawal addresses (`recipientProblem` of @bench-bounty/contracts), naming the option,
 * before anything is sent.
 */
import { expectRefusal, lockCommand, rpc, useTaskChain, vectorPath } from "./helpers";

describe("a protocol contract as a recipient (probe16 B-F8)", function () {
  const local = useTaskChain();

  it("refuses the AnchorRegistry, the bounty, USDC, a precompile and a predeploy as --to / --withdrawals", async function () {
    const { anchorRegistry, benchmarkBounty, usdc } = local.chain.contracts;
    await local.refuses(
      ["bounty:claim", "--id", "1", "--to", anchorRegistry],
      /--to: .* is one of the protocol's contracts .*: it can never claim/,
    );
    await local.refuses(
      ["bounty:claim", "--relay", "--id", "1", "--to", benchmarkBounty],
      /--to: .* is one of the protocol's contracts/,
    );
    await local.refuses(
      ["bounty:reclaim", "--id", "1", "--to", usdc],
      /--to: .* is one of the protocol's contracts/,
    );
    await local.refuses(
      ["bounty:claim", "--id", "1", "--to", "0x0000000000000000000000000000000000000100"],
      /--to: .* is a precompile address/,
    );
    await local.refuses(
      ["bounty:reclaim", "--id", "1", "--to", "0x4200000000000000000000000000000000000006"],
      /--to: .* is an OP-stack predeploy/,
    );
    const pack = vectorPath("packs/small.json");
    await local.refuses(
      ["bounty:award", "--id", "1", "--rank-derivation", pack, "--withdrawals", `vec-a=${anchorRegistry}`],
      /--withdrawals: the withdrawal address of agent "vec-a": .* is one of the protocol's contracts/,
    );
  });

  it("refuses a BenchmarkBounty or AnchorRegistry deployed at another address as --to, by its code (probe26 C-F7)", async function () {
    const { anchorRegistry, benchmarkBounty } = local.chain.contracts;
    const url = local.chain.rpcUrl;
    const bountyCopy = "0x00000000000000000000000000000000000B0B01";
    const registryCopy = "0x00000000000000000000000000000000000b0b02";
    await rpc(url, "hardhat_setCode", [
      bountyCopy,
      await rpc(url, "eth_getCode", [benchmarkBounty, "latest"]),
    ]);
    await rpc(url, "hardhat_setCode", [
      registryCopy,
      await rpc(url, "eth_getCode", [anchorRegistry, "latest"]),
    ]);
    await local.refuses(
      ["bounty:claim", "--id", "1", "--to", bountyCopy],
      new RegExp(
        `^Error: --to: ${bountyCopy} runs the protocol's BenchmarkBounty code \\(a deployment at another address\\): it can never claim, credit there is lost\\.$`,
        "m",
      ),
    );
    await local.refuses(
      ["bounty:claim", "--relay", "--id", "1", "--to", registryCopy],
      /--to: .* runs the protocol's AnchorRegistry code/,
    );
    await local.refuses(
      ["bounty:reclaim", "--id", "1", "--to", bountyCopy],
      /--to: .* runs the protocol's BenchmarkBounty code/,
    );
  });

  it("names the option and the problem for an address without 0x or with a wrong checksum (probe17 B-F6)", async function () {
    const noPrefix = "F646ce19E9F80a7927058CE47Bc7c8B7c00aB0B8";
    const badChecksum = "0xF646ce19E9F80a7927058CE47Bc7c8B7c00aB0B9";
    const notAnAddress = /not a 0x-prefixed address of 40 hex digits/;
    const checksum = /wrong EIP-55 checksum/;
    await local.refuses(
      ["bounty:claim", "--id", "1", "--to", noPrefix],
      new RegExp(`--to: ${notAnAddress.source}`),
    );
    await local.refuses(
      ["bounty:claim", "--relay", "--id", "1", "--to", noPrefix],
      /--to: not a 0x-prefixed/,
    );
    await local.refuses(["bounty:reclaim", "--id", "1", "--to", noPrefix], /--to: not a 0x-prefixed/);
    await local.refuses(
      ["bounty:claim", "--id", "1", "--to", badChecksum],
      new RegExp(`--to: .*${checksum.source}`),
    );
    await local.refuses(
      ["bounty:reclaim", "--id", "1", "--to", badChecksum],
      /--to: .*wrong EIP-55 checksum/,
    );
    const pack = vectorPath("packs/small.json");
    for (const [address, pattern] of [
      [noPrefix, notAnAddress],
      [badChecksum, checksum],
    ] as const) {
      const result = await local.run([
        "bounty:award",
        "--id",
        "1",
        "--rank-derivation",
        pack,
        "--withdrawals",
        `vec-a=${address}`,
      ]);
      expectRefusal(
        result,
        new RegExp(`--withdrawals: the withdrawal address of agent "vec-a": .*${pattern.source}`),
      );
    }
  });

  it("the tasks' other address options take the same form rule: --awarder, --token, --author, --account, --from, local:mint-usdc --to (probe17 B-F6, same class)", async function () {
    const noPrefix = "F646ce19E9F80a7927058CE47Bc7c8B7c00aB0B8";
    const badChecksum = "0xF646ce19E9F80a7927058CE47Bc7c8B7c00aB0B9";
    const lock = await lockCommand(local.chain, local.dir);
    await local.refuses([...lock, "--awarder", noPrefix], /--awarder: not a 0x-prefixed address/);
    await local.refuses([...lock, "--token", badChecksum], /--token: .*wrong EIP-55 checksum/);
    await local.refuses(["bounty:status", "--id", "1", "--author", noPrefix], /--author: not a 0x-prefixed/);
    await local.refuses(["bounty:credits", "--account", badChecksum], /--account: .*wrong EIP-55 checksum/);
    await local.refuses(["local:mint-usdc", "--to", noPrefix, "--amount", "1"], /--to: not a 0x-prefixed/);
    await local.refuses(
      ["bounty:reclaim", "--id", "1", "--from", badChecksum],
      /--from: .*wrong EIP-55 checksum/,
    );
  });

  it("refuses a router, a precompile and the protocol's contracts as --awarder by the recipient rule (probe19 B-F9)", async function () {
    const lock = await lockCommand(local.chain, local.dir);
    const { anchorRegistry, benchmarkBounty } = local.chain.contracts;
    const multicall3 = "0xcA11bde05977b3631167028862bE2a173976CA11";
    await local.refuses(
      [...lock, "--awarder", multicall3],
      new RegExp(
        `^Error: --awarder: ${multicall3} is Multicall3 .*: anyone could award through it\\. Nothing was sent\\.$`,
        "m",
      ),
    );
    await local.refuses(
      [...lock, "--awarder", "0xa83c336b20401af773b6219ba5027174338d1836"],
      /^Error: --awarder: .* is Safe MultiSendCallOnly v1\.5\.0 .*: anyone could award through it/m,
    );
    await local.refuses(
      [...lock, "--awarder", "0x0000000000000000000000000000000000000001"],
      /^Error: --awarder: 0x0+1 is a precompile address .*: it can never award, only a reclaim would return the pool\. Nothing was sent\.$/m,
    );
    for (const contract of [benchmarkBounty, anchorRegistry])
      await local.refuses(
        [...lock, "--awarder", contract],
        /^Error: --awarder: .* is one of the protocol's contracts .*: it can never award/m,
      );
    await local.refuses(
      [...lock, "--awarder", "0x0000000000000000000000000000000000000000"],
      /^Error: --awarder: the zero address: it can never award/m,
    );
  });

  it("refuses a contract that is not a token as --token in one line before anything is sent (probe19 B-F10)", async function () {
    const lock = await lockCommand(local.chain, local.dir);
    const { anchorRegistry, benchmarkBounty } = local.chain.contracts;
    for (const contract of [anchorRegistry, benchmarkBounty])
      await local.refuses(
        [...lock, "--token", contract],
        new RegExp(
          `^Error: --token: ${contract} on localhost is not an ERC-20 token \\(symbol\\(\\), decimals\\(\\) or balanceOf\\(\\) reverts\\)\\. Nothing was sent\\.$`,
          "m",
        ),
      );
  });
});
