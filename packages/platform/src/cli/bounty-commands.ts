/** The bounty commands: lock and attach. */
import { Command, Option } from "commander";
import { MAX_LOCK_UNIX_SECONDS, MIN_AWARD_WINDOW_SECONDS } from "@bench-bounty/evidence";
import { PlatformError } from "../errors.js";
import { LOCK_CLOSE_LEAD_SECONDS } from "../award/bounty.js";
import {
  action,
  attachCommand,
  int,
  print,
  principalOf,
  signerKey,
  storeOptions,
  type StoreOpts,
  withPlatform,
} from "./common.js";
import type { Hex } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { parseUsdcAmount } from "./common.js";

/** Registers the bounty commands: lock and attach. */
/** Longest `--closes-in` / `--award-window`: 100 years of seconds (a longer one is a typo). */
const MAX_SPAN_SECONDS = 100 * 365 * 86400;

export function registerBountyCommands(program: Command): void {
  storeOptions(
    program
      .command("lock")
      .description(
        "the author locks a USDC prize for a benchmark (approve + createAndFund, key in BENCH_BOUNTY_AUTHOR_KEY)",
      )
      .argument("<slug>"),
  )
    .requiredOption(
      "--pool <usdc>",
      "prize pool in USDC, decimal (e.g. 100 or 12.5; at most 6 decimals)",
      parseUsdcAmount,
    )
    .option(
      "--closes-at <unix>",
      `close time, unix seconds, more than ${LOCK_CLOSE_LEAD_SECONDS} s after the chain's next block; this or --closes-in is required`,
      int("closes-at", 1, MAX_LOCK_UNIX_SECONDS),
    )
    .option(
      "--closes-in <seconds>",
      `close time, seconds from the chain's next block (the pending block: the earliest the lock lands), more than ${LOCK_CLOSE_LEAD_SECONDS}; this or --closes-at is required`,
      int("closes-in", 1, MAX_SPAN_SECONDS),
    )
    .option(
      "--award-window <seconds>",
      `seconds between close and award deadline, at least ${MIN_AWARD_WINDOW_SECONDS} (the service's minimum to award in; 604800 s is 7 days)`,
      int("award-window", MIN_AWARD_WINDOW_SECONDS, MAX_SPAN_SECONDS),
      7 * 86400,
    )
    .requiredOption(
      "--threshold-bps <bps>",
      "composite threshold in basis points, 0..10000 (required: no default for money rules)",
      int("threshold-bps", 0, 10000),
    )
    .addOption(
      new Option("--payout-rule <rule>", "payout rule (required: no default for money rules)")
        .choices(["winner_take_all", "top_n_split"])
        .makeOptionMandatory(),
    )
    .action(
      action(
        async (
          slug: string,
          o: StoreOpts & {
            pool: bigint;
            closesAt?: number;
            closesIn?: number;
            awardWindow: number;
            thresholdBps: number;
            payoutRule: "winner_take_all" | "top_n_split";
          },
        ) => {
          const key = signerKey("BENCH_BOUNTY_AUTHOR_KEY", "to sign the lock as the author");
          await withPlatform(o, true, async (platform) => {
            // An unknown slug is named before the chain is contacted.
            await platform.getBenchmark(slug);
            if (!platform.chain) throw new PlatformError("no_chain", "lock needs --rpc-url", {});
            // a close time decides when money can move: no default (probe14 D3-F10: it was 1 hour)
            if (o.closesAt === undefined && o.closesIn === undefined)
              throw new PlatformError(
                "invalid_option",
                "give --closes-in SECONDS or --closes-at UNIX: a prize has no default close time",
                { field: "closes-in" },
              );
            if (o.closesAt !== undefined && o.closesIn !== undefined)
              throw new PlatformError("invalid_option", "give --closes-at or --closes-in, not both", {
                field: "closes-at",
              });
            // --closes-in counts from the next block's time, the earliest the lock's transactions land
            // (probe38 C-F2: from the latest block's, on an idle node long past, a close "in 120 s" was
            // already past); the domain judges the close by that block (lockBounty: closes_at)
            const closesAt = o.closesAt ?? Number(await platform.chain.pendingTimestamp()) + o.closesIn!;
            const attached = await platform
              .lockBounty(await principalOf(platform, o), slug, {
                authorPrivateKey: key as Hex,
                pool: o.pool,
                closesAt,
                awardDeadline: closesAt + o.awardWindow,
                thresholdBps: o.thresholdBps,
                payoutRule: o.payoutRule,
              })
              .catch((e: unknown) => {
                // the root is bound to the author's live bounty with other terms (probe27 C-F4): the way
                // out, to paste
                // a close too near, given as --closes-in: named as the option given
                if (
                  e instanceof PlatformError &&
                  e.code === "invalid_option" &&
                  e.details.field === "closes_at" &&
                  o.closesIn !== undefined
                )
                  throw new PlatformError(
                    e.code,
                    `--closes-in ${o.closesIn} puts the close at ${closesAt}: ${e.message}`,
                    { ...e.details, field: "closes-in" },
                  );
                // (an attach command only for a bounty that can be attached: probe38 V-N1)
                if (
                  e instanceof PlatformError &&
                  e.code === "bounty_exists" &&
                  e.details.attachable !== false
                ) {
                  const id = String(e.details.bounty_id);
                  throw new PlatformError(
                    e.code,
                    // the lock's author named: an attach by another than the benchmark's author must name it
                    `${e.message}. To attach bounty ${id} to ${slug}:\n  ${attachCommand(slug, id, o, privateKeyToAccount(key as Hex).address)}`,
                    e.details,
                  );
                }
                throw e;
              });
            print(attached);
          });
        },
      ),
    );

  storeOptions(
    program
      .command("attach")
      .description("attach an existing on-chain bounty (root and leaf count must match)")
      .argument("<slug>")
      .argument("<bounty-id>"),
  )
    .option(
      "--author <address>",
      "the bounty's on-chain author (the address that locked it), checked against the chain; required unless you are the benchmark's author",
    )
    .action(
      action(async (slug: string, bountyId: string, o: StoreOpts & { author?: string }) => {
        // the domain attachBounty checks (1 to 2^256-1), said at once (probe34 B-N3: "non-negative", then 0 refused)
        if (!/^[1-9]\d*$/.test(bountyId))
          throw new PlatformError(
            "invalid_option",
            `<bounty-id> must be a whole number from 1 to 2^256-1 in decimal digits, got ${bountyId}`,
            {
              field: "bounty-id",
            },
          );
        await withPlatform(o, true, async (platform) => {
          print(
            await platform.attachBounty(
              await principalOf(platform, o),
              slug,
              bountyId,
              o.author !== undefined ? { author: o.author } : {},
            ),
          );
        });
      }),
    );
}
