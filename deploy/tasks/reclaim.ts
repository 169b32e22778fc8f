/**
 * `bounty:reclaim`: the author takes a bounty back (SPEC 1.1): a Pending one at
 * any time (cancel), a Funded one only after its award deadline (the pool
 * returns), to the author or to `--to` (SPEC 1.1 v1.1: a blacklisted author
 * still recovers the pool at a clean address). The test set stays hidden (the
 * root is not burned). The deadline is judged by the time of the block the
 * reclaim lands in (`pendingNow`), as the contract judges it (probe29 C-F6).
 */
import { task, types } from "hardhat/config";
import { TaskError, userAction } from "../lib/errors";
import {
  eventIn,
  explainTokenRefusal,
  refuseLostRecipientOnChain,
  refuseTokenRecipient,
  pendingNow,
  refuseMalformedAddress,
  simulateAndSend,
  taskContext,
  tokenDisplay,
  withFromParam,
} from "../lib/context";
import { pasteableTask, txLink } from "../lib/network";
import { contracts } from "../lib/packages";
import { formatAmount, isoSeconds, parseBountyId, relative } from "../lib/format";

withFromParam(
  task("bounty:reclaim", "Author: take back a Pending bounty, or a Funded one after its award deadline"),
  "Author account",
)
  .addParam("id", "Bounty id", undefined, types.string)
  .addOptionalParam("to", "Where the pool goes (default: the author)", undefined, types.string)
  .setAction(
    userAction(async (args: { id: string; to?: string; from?: string }, hre) => {
      const id = parseBountyId(args.id);
      if (args.to !== undefined) refuseMalformedAddress(args.to, "--to");
      const ctx = await taskContext(hre, { needSigner: true, from: args.from });
      if (args.to !== undefined) await refuseLostRecipientOnChain(args.to, "--to", ctx);
      const b = await ctx.bounty.getBounty(id);
      const { BountyStatus: S, bountyStatusName } = contracts();
      const status = Number(b.status);
      if (status === S.None) throw new TaskError(`There is no bounty ${id} on ${ctx.profile.name}.`);
      if (status === S.Awarded || status === S.Reclaimed) {
        throw new TaskError(
          `Bounty ${id} is already ${bountyStatusName(status)}: there is nothing to reclaim${status === S.Awarded ? " (winners and the author claim their credit with bounty:claim)" : ""}.`,
        );
      }
      if (ctx.signer.address.toLowerCase() !== b.author.toLowerCase()) {
        throw new TaskError(
          `${ctx.signer.address} is not the author of bounty ${id} (${b.author}): only the author can reclaim.`,
        );
      }
      // the time of the block the reclaim lands in (the pending one), as the contract judges it: at the
      // deadline's last second the latest block is not past it, but no block to come can carry an award
      const now = await pendingNow(ctx);
      if (status === S.Funded && now <= b.awardDeadline) {
        throw new TaskError(
          `Bounty ${id} is Funded and its award deadline ${isoSeconds(b.awardDeadline)} is ${relative(b.awardDeadline, now)}: it can be reclaimed only after that (the awarder may still award it).`,
        );
      }
      const to = hre.ethers.getAddress(args.to ?? b.author);
      refuseTokenRecipient(to, args.to !== undefined ? "--to" : "the author", [
        { bountyId: id, token: b.token },
      ]);
      const { symbol } = await tokenDisplay(ctx, b.token);
      console.log(
        status === S.Pending
          ? `Cancelling Pending bounty ${id} (nothing was funded).`
          : `Reclaiming bounty ${id}: the award deadline passed ${relative(b.awardDeadline, now).replace(" ago", "")} ago; ${formatAmount(b.pool, symbol)} returns to ${to}${args.to ? " (--to)" : ""}.`,
      );
      const receipt = await simulateAndSend(
        ctx,
        "reclaim",
        (o) => ctx.bounty.reclaim.staticCall(id, to, o),
        () => ctx.bounty.reclaim(id, to),
        undefined,
        pasteableTask(ctx.profile, "bounty:status", ["--id", String(id)]),
      ).catch(async (e: unknown) => {
        // whom a token's refusal is about is read, not guessed from its reason (probe30 C-F3)
        throw await explainTokenRefusal(ctx, e, b.token, [
          { address: to, advice: "(the recipient): reclaim with --to a clean address." },
          {
            address: ctx.bountyAddress,
            advice:
              "(the bounty contract, which returns the pool): no --to helps; the pool stays until the token stops blacklisting it.",
          },
        ]);
      });
      const ev = eventIn(receipt, ctx.bounty, "Reclaimed");
      console.log(
        `Reclaimed bounty ${ev.args.bountyId}: ${formatAmount(ev.args.amount as bigint, symbol)} to ${ev.args.to}. The test set stays hidden.`,
      );
      console.log(`  tx   ${receipt.hash} (block ${receipt.blockNumber})`);
      console.log(`  link ${txLink(ctx.profile, receipt.hash)}`);
    }),
  );
