/**
 * Phase 7: the winners claim with `hardhat bounty:claim`. Place 1 holds no ETH (its balance is set to 0
 * first), so it is paid through a relayed `claimWithSig` (`bounty:claim --relay`: the winner signs the
 * EIP-712 Claim, the platform's account submits it and pays the gas) to another address of its own.
 */
import { benchmarkBountyAbi } from "@bench-bounty/contracts";
import { getAddress, type Hex } from "viem";
import { checkTaskTarget, hardhatTask, usdcBalance } from "../chain-tools.js";
import { need, type DemoPhase } from "../context.js";
import type { ClaimRecord } from "../result.js";
import { formatUsdc } from "../table.js";
import { COLD_WALLET_INDEX, PLATFORM_INDEX } from "../terms.js";

/**
 * The claim phase's summary line. probe37 B-F8 (nit): an award without winners (SPEC 7.3, k = 0) read
 * "0 claims, 0.000000 USDC paid out (place 1 relayed with claimWithSig, ...)", naming a place 1 there is not.
 * @param claims the claims made, in place order
 * @param zeroWinnerReason the award's `zero_winner_reason` (null or absent when it has winners)
 * @returns one line: the claims and the USDC they moved, or why there was nothing to claim
 */
export function claimSummary(claims: readonly ClaimRecord[], zeroWinnerReason?: string | null): string {
  if (claims.length === 0)
    return `no claims: the award has no winners${zeroWinnerReason ? ` (${zeroWinnerReason})` : ""}`;
  const moved = claims.reduce((s, cl) => s + BigInt(cl.amount), 0n);
  const relayed = claims.some((cl) => cl.relayed)
    ? " (place 1 relayed with claimWithSig, to another address)"
    : "";
  return `${claims.length} claim${claims.length === 1 ? "" : "s"}, ${formatUsdc(moved)} USDC paid out${relayed}`;
}

/** winners claim (bounty:claim). */
export const claimPhase: DemoPhase = {
  name: "winners claim (bounty:claim; place 1 relayed, holds no ETH)",
  async run(ctx, p) {
    const { registry, result } = ctx;
    const c = need(ctx.chain, "the chain");
    const award = need(result.award, "the award");
    const bountyId = need(ctx.bountyId, "the bounty id");
    const addressBook = need(ctx.addressBook, "the address book");
    const claims: ClaimRecord[] = [];
    const claimed = new Set<string>();
    for (const w of award.winners) {
      const account = getAddress(w.withdrawal_address);
      if (claimed.has(account)) continue; // one owner, two winning agents: one claim takes both credits
      claimed.add(account);
      const to = w.place === 1 ? c.accounts[COLD_WALLET_INDEX]!.address : account;
      const credit = await c.publicClient.readContract({
        address: c.contracts.benchmarkBounty,
        abi: benchmarkBountyAbi,
        functionName: "creditOf",
        args: [bountyId, account],
      });
      const relayed = w.place === 1;
      if (relayed) {
        await c.publicClient.request({ method: "hardhat_setBalance", params: [account, "0x0"] } as never);
        p.note(`place 1    ${account} holds 0 ETH: its claim is signed by it and relayed by the platform`);
      }
      const before = await usdcBalance(c, to);
      const who = relayed
        ? ["--relay", "--account", account, "--from", c.accounts[PLATFORM_INDEX]!.address]
        : ["--from", account];
      const stdout = await hardhatTask(
        registry,
        c,
        addressBook,
        ["bounty:claim", "--network", "localhost", "--id", bountyId.toString(), "--to", to, ...who],
        p.note,
      );
      if (relayed) {
        const eth = await c.publicClient.getBalance({ address: account });
        if (eth !== 0n)
          throw new Error(`the relayed claim spent the winner's ETH (${eth} wei left, expected 0)`);
      }
      const after = await usdcBalance(c, to);
      const creditAfter = await c.publicClient.readContract({
        address: c.contracts.benchmarkBounty,
        abi: benchmarkBountyAbi,
        functionName: "creditOf",
        args: [bountyId, account],
      });
      const tx = /tx\s+(0x[0-9a-fA-F]{64})/.exec(stdout)?.[1];
      if (!tx) throw new Error(`bounty:claim did not report its transaction:\n${stdout}`);
      await checkTaskTarget(c, tx as Hex, "bounty:claim");
      if (after - before !== credit) {
        throw new Error(
          `claim of ${account}: ${to} received ${after - before} base units, the credit was ${credit}`,
        );
      }
      if (creditAfter !== 0n)
        throw new Error(`claim of ${account}: ${creditAfter} base units of credit left`);
      claims.push({
        place: w.place,
        agent_id: w.agent_id,
        relayed,
        account: account.toLowerCase(),
        to: to.toLowerCase(),
        amount: credit.toString(),
        tx_hash: tx,
        balance_before: before.toString(),
        balance_after: after.toString(),
        credit_after: creditAfter.toString(),
      });
    }
    result.claims = claims;
    p.summary(claimSummary(claims, award.zero_winner_reason));
  },
};
