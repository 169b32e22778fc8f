/**
 * Gas benchmark of BenchmarkBounty and AnchorRegistry on the local Base profile (TestUSDC at the Base
 * USDC address). Prints a table and writes docs/gas.md.
 *
 *   npx hardhat run scripts/bench-gas.ts      (root script: pnpm bench:gas)
 *
 * Figures are `gasUsed` of the transaction receipts (21,000 intrinsic gas and calldata included) in the
 * steady state: the contracts already hold USDC from an earlier bounty, and recipients of `claim`
 * already hold USDC unless the row says "fresh recipient".
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { ethers, network } from "hardhat";
import type { ContractTransactionResponse } from "ethers";
import {
  baseProfile,
  bountyParams,
  createFunded,
  signPermit,
  ONE_USDC,
  TOP_N_SPLIT,
  WINNER_TAKE_ALL,
} from "../test/fixtures";

interface Row {
  operation: string;
  gas: bigint;
  target?: bigint;
}

async function gasOf(tx: Promise<ContractTransactionResponse>): Promise<bigint> {
  const receipt = await (await tx).wait();
  if (!receipt) throw new Error("no receipt");
  return receipt.gasUsed;
}

async function increaseTimeTo(timestamp: bigint): Promise<void> {
  await network.provider.send("evm_setNextBlockTimestamp", [Number(timestamp)]);
  await network.provider.send("evm_mine", []);
}

async function main(): Promise<void> {
  const fx = await baseProfile();
  const { usdc, bounty, registry, author, awarder, alice, bob, carol } = fx;
  const bountyAddress = await bounty.getAddress();
  const rows: Row[] = [];

  // Warm-up: the contract already holds USDC and has created a bounty (steady state).
  await createFunded(fx, author);

  // createAndFund (top_n_split, 100 USDC).
  const p1 = await bountyParams(fx, { splitsBps: TOP_N_SPLIT });
  await (await usdc.connect(author).approve(bountyAddress, p1.pool)).wait();
  const id1 = (await bounty.bountyCount()) + 1n;
  rows.push({
    operation: "createAndFund (3 places)",
    gas: await gasOf(bounty.connect(author).createAndFund(p1)),
    target: 260_000n,
  });

  // createAndFundWithPermit (winner_take_all).
  const p2 = await bountyParams(fx, { splitsBps: WINNER_TAKE_ALL });
  const deadline = p2.closesAt;
  const sig = await signPermit(usdc, author, bountyAddress, p2.pool, deadline);
  const id2 = (await bounty.bountyCount()) + 1n;
  rows.push({
    operation: "createAndFundWithPermit (1 place)",
    gas: await gasOf(bounty.connect(author).createAndFundWithPermit(p2, deadline, sig.v, sig.r, sig.s)),
  });

  // A third bounty to reclaim after its deadline.
  const { id: id3, params: p3 } = await createFunded(fx, author);

  // Two winner_take_all bounties for claimMany.
  const { id: idA } = await createFunded(fx, author, { splitsBps: WINNER_TAKE_ALL });
  const { id: idB, params: pB } = await createFunded(fx, author, { splitsBps: WINNER_TAKE_ALL });

  await increaseTimeTo(pB.closesAt);
  const digest = ethers.keccak256(ethers.toUtf8Bytes("rank_derivation"));
  rows.push({
    operation: "award, 1 winner",
    gas: await gasOf(bounty.connect(awarder).award(id2, [alice.address], digest)),
  });
  rows.push({
    operation: "award, 3 winners",
    gas: await gasOf(bounty.connect(awarder).award(id1, [alice.address, bob.address, carol.address], digest)),
    target: 120_000n,
  });
  rows.push({
    operation: "claim (recipient holds USDC)",
    gas: await gasOf(bounty.connect(alice).claim(id1, alice.address)),
    target: 60_000n,
  });
  const fresh = ethers.Wallet.createRandom().address;
  rows.push({
    operation: "claim (fresh recipient)",
    gas: await gasOf(bounty.connect(bob).claim(id1, fresh)),
  });
  await (await bounty.connect(awarder).award(idA, [carol.address], digest)).wait();
  await (await bounty.connect(awarder).award(idB, [carol.address], digest)).wait();
  rows.push({
    operation: "claimMany, 2 bounties",
    gas: await gasOf(bounty.connect(carol).claimMany([idA, idB], carol.address)),
  });

  await increaseTimeTo(p3.awardDeadline + 1n);
  rows.push({
    operation: "reclaim (Funded, after deadline)",
    gas: await gasOf(bounty.connect(author).reclaim(id3)),
  });

  const kind = await registry.KIND_RECEIPT();
  const d = (i: number) => ethers.keccak256(ethers.toUtf8Bytes(`digest ${i}`));
  rows.push({
    operation: "anchor",
    gas: await gasOf(registry.connect(alice).anchor(d(0), kind)),
    target: 50_000n,
  });
  rows.push({
    operation: "anchorMany, 10 digests",
    gas: await gasOf(
      registry.connect(alice).anchorMany(
        Array.from({ length: 10 }, (_, i) => d(i + 1)),
        kind,
      ),
    ),
  });

  const fmt = (n: bigint) => n.toLocaleString("en-US");
  const lines = rows.map((r) => {
    const target = r.target === undefined ? "" : `<= ${fmt(r.target)}`;
    const ok = r.target === undefined ? "" : r.gas <= r.target ? "met" : "MISSED";
    return `| ${r.operation} | ${fmt(r.gas)} | ${target} | ${ok} |`;
  });
  const table = ["| operation | gas used | target | |", "|---|---:|---|---|", ...lines].join("\n");
  console.log(table);

  const md = `# Gas figures

Generated by \`npx hardhat run scripts/bench-gas.ts\` (root script \`pnpm bench:gas\`); regenerate, never edit.

Local Base profile: Hardhat network, chain id 8453, evm cancun, solc 0.8.28 with the optimizer (10,000 runs),
\`TestUSDC\` (FiatToken surface) placed at the Base USDC address. Figures are \`gasUsed\` of the receipts
(intrinsic 21,000 and calldata included), in the steady state: the contract already holds USDC from an earlier
bounty and claim recipients already hold USDC unless marked "fresh recipient" (a first balance costs 17,100
more in the token). Pools are 100 USDC (${fmt(100n * ONE_USDC)} base units).

${table}

Why the figures are low: a bounty is six storage slots (the shares packed into one \`uint128\`), the root is
burned by the award's status write (\`rootBurned\` reads the root's last bounty), the reentrancy lock is
transient (EIP-1153), and an anchor is one slot (anchorer, block number, timestamp and a kind code).
`;
  writeFileSync(join(__dirname, "..", "docs", "gas.md"), md);
  console.log("\nwrote docs/gas.md");
}

main().catch((e: unknown) => {
  console.error(e);
  process.exitCode = 1;
});
