/** The operator commands: anchor, close, award, evidence. */
import { Command } from "commander";
import type { Address } from "viem";
import { PlatformError } from "../errors.js";
import type { Platform } from "../platform.js";
import type { AwardWaitingFor } from "../award.js";
import {
  action,
  awardMintCommand,
  evidenceChainCommand,
  knownChainOf,
  print,
  principalOf,
  storeOptions,
  type StoreOpts,
  withPlatform,
} from "./common.js";
import { terminalJsonText } from "../terminal.js";

/**
 * The base of the receipt URLs a new award of `slug` freezes into its pack and its on-chain ranking
 * digest (SPEC 7.4, 8 `rows[].receipt_url`: they can never be corrected), probe27 C-F6: `--public-url`
 * (env `BENCH_BOUNTY_PUBLIC_URL`), else the one `serve` recorded on this store (the base its own awards
 * use: `--public-url`, else the address it listens on), which it sets on `platform` and names on stderr;
 * a `--public-url` that is not the recorded base is named on stderr beside it (probe34 C-N2).
 * An award already prepared (its URLs frozen) needs none. Never the library's placeholder
 * `http://127.0.0.1:8787`, which the award used to bake in silently.
 * @throws PlatformError `invalid_option` (`field: "public-url"`): no URL given, none recorded, and no award prepared
 */
async function useAwardBaseUrl(platform: Platform, slug: string, o: StoreOpts): Promise<void> {
  if (await platform.awardPrepared(slug)) return;
  const recorded = await platform.recordedPublicBaseUrl();
  const base = (url: string) => url.replace(/\/+$/, "");
  if (o.publicUrl !== undefined) {
    // given (checked at open and set on the platform); one that is not the base serve recorded is said,
    // since the pack freezes it for good (probe34 C-N2: it overrode the recorded base silently)
    if (recorded !== null && base(recorded) !== base(o.publicUrl))
      process.stderr.write(
        `receipt URLs of the award of ${slug}: ${base(o.publicUrl)}/api/v1/benchmarks/${slug}/runs/<run>/receipt (--public-url), not the base serve recorded on this store (${base(recorded)}): the pack and its on-chain ranking digest freeze them for good, so a door must answer there\n`,
      );
    return;
  }
  if (recorded === null)
    throw new PlatformError(
      "invalid_option",
      `--public-url is required for an award (or set BENCH_BOUNTY_PUBLIC_URL): the service's public base URL, as given to serve; the award freezes every receipt_url into its pack and its on-chain ranking digest, and no serve recorded its URL on this store; nothing was prepared or sent`,
      { field: "public-url" },
    );
  platform.setPublicBaseUrl(recorded);
  process.stderr.write(
    `receipt URLs of the award of ${slug}: ${base(recorded)}/api/v1/benchmarks/${slug}/runs/<run>/receipt (the base serve recorded on this store; --public-url to use another)\n`,
  );
}

/** Registers the operator commands: anchor, close, award, evidence. */
export function registerOperatorCommands(program: Command): void {
  storeOptions(
    program
      .command("anchor")
      .description(
        "the operator's (keyless; any other --api-key is refused): anchor what is pending for a benchmark (commitment, receipts via anchorMany); --list only lists it, and what was squatted",
      )
      .argument("<slug>"),
  )
    .option("--list", "list what is pending and what was squatted, anchor nothing")
    .action(
      action(async (slug: string, o: StoreOpts & { list?: boolean }) => {
        await withPlatform(o, true, async (platform) => {
          const p = await principalOf(platform, o);
          if (o.list) return print(await platform.anchorsOf(p, slug));
          const done = await platform.anchorBenchmark(p, slug);
          process.stderr.write(`${done.pending.length} digest(s) were pending for ${slug}\n`);
          print(done);
          if (done.squatted.length > 0) {
            process.stderr.write(
              `error: ${done.squatted.length} digest(s) of ${slug} were anchored first by someone else with another kind (squatted, listed above): never sent again; the award of ${slug} is refused while one is its commitment or a ranked receipt\n`,
            );
            process.exitCode = 1;
          }
        });
      }),
    );

  storeOptions(
    program.command("close").description("close a benchmark to new runs").argument("<slug>"),
  ).action(
    action(async (slug: string, o: StoreOpts) => {
      await withPlatform(o, true, async (platform) => {
        print(await platform.closeBenchmark(await principalOf(platform, o), slug));
      });
    }),
  );

  storeOptions(
    program
      .command("award")
      .description("settle the award on-chain, mint, anchor and store the evidence pack (resumable)")
      .argument("<slug>"),
  ).action(
    action(async (slug: string, o: StoreOpts) => {
      await withPlatform(o, true, async (platform) => {
        const p = await principalOf(platform, o);
        await useAwardBaseUrl(platform, slug, o);
        // the transaction's hash and the wait, as soon as they are known: the award's (probe32 C-F3),
        // then the pack's anchor's (probe33 C-F1)
        const onWaiting = (tx: string, adopted: boolean, until: number, what: AwardWaitingFor): void => {
          const s = Math.max(0, Math.ceil((until - Date.now()) / 1000));
          const sent = adopted ? "found its transaction sent before" : "sent";
          process.stderr.write(
            what === "pack_anchor"
              ? `award of ${slug}: confirmed (the prize is paid); its evidence pack's anchor: ${sent} ${tx}; waiting up to ${s} s for it to be mined (never sent twice: award again adopts it)\n`
              : `award of ${slug}: ${sent} ${tx}; waiting up to ${s} s for it to be mined (never sent twice: award again adopts it)\n`,
          );
        };
        const onLetGo = (tx: string): void => {
          process.stderr.write(
            `award of ${slug}: ${tx} is no longer known to the node (dropped, or its nonce taken by another transaction): it can never be mined; sending the award anew (the contract takes one award, so it cannot pay twice)\n`,
          );
        };
        print(await platform.award(p, slug, { onWaiting, onLetGo }));
      });
    }),
  );

  storeOptions(
    program
      .command("evidence")
      .description(
        "print the stored award evidence pack (or why there is none); with --rpc-url it reads where the award is on-chain, needing no BENCH_BOUNTY_PRIVATE_KEY (which minting a confirmed award's pack needs)",
      )
      .argument("<slug>"),
    // read-only: its --award-confirmations is not the store's, and its help says so (probe36 C-N1)
    { keepsAwardDepth: false },
  ).action(
    action(async (slug: string, o: StoreOpts) => {
      // reading where an award is needs no signing key (probe24 C-F4): without BENCH_BOUNTY_PRIVATE_KEY the
      // chain opens read-only as the bounty's awarder, the platform account recorded at its attach
      const readAs = o.rpcUrl !== undefined ? await awarderOf(slug, o) : undefined;
      const chainless = o.rpcUrl !== undefined && readAs === null;
      await withPlatform(
        chainless ? { ...o, rpcUrl: undefined } : o,
        true,
        async (platform) => {
          const r = await platform.awardEvidence(slug).catch((e: unknown) => {
            // read-only (no key): a confirmed award's pack cannot be minted here (probe25 B-F6)
            if (e instanceof PlatformError && e.code === "chain_error" && e.details.read_only === true)
              return {
                kind: "unavailable" as const,
                reason: "pack_pending" as const,
                message: `the award is confirmed and its pack is not minted yet: minting it needs the platform account's key (${e.message})`,
              };
            throw e;
          });
          // a key that is not the bounty's awarder mints no pack (its anchor would be spent for good by
          // the wrong key: probe36 C-F1): refused as the award is, naming both addresses
          if (r.kind === "unavailable" && "refusal" in r && r.refusal) throw r.refusal;
          // the exact bytes when piped (`> pack.json`); on a terminal, the agents' answers in it escaped
          if (r.kind === "pack") {
            const text = Buffer.from(r.bytes).toString("utf8");
            process.stdout.write((process.stdout.isTTY ? terminalJsonText(text) : text) + "\n");
          } else {
            // the door's answer, its reason's facts too (`awarded_elsewhere`: the award's transaction, probe37 C-F2)
            print({
              error: {
                code: "award_evidence_unavailable",
                reason: r.reason,
                message: r.message,
                ...("details" in r && r.details ? { details: { ...r.details, reason: r.reason } } : {}),
              },
            });
            if (r.reason === "award_pending" && !platform.chain)
              process.stderr.write(
                `read where it is on the chain (no signing key needed) with:\n    ${evidenceChainCommand(slug, o, knownChainOf(await platform.getBenchmark(slug)))}\n`,
              );
            if (r.reason === "pack_pending" && (!platform.chain || platform.chain.readOnly))
              process.stderr.write(
                `mint its pack with:\n    ${awardMintCommand(slug, o, knownChainOf(await platform.getBenchmark(slug)))}\n`,
              );
            process.exitCode = 1;
          }
        },
        // read-only: its --award-confirmations is not the store's (probe30 C-F9)
        { keepStoreAwardDepth: true, ...(readAs ? { readAs } : {}) },
      );
    }),
  );
}

/**
 * The awarder of the bounty attached to `slug` as recorded in the store (the platform account that
 * attached it: `attach` checks that the awarder is this platform's), read without a chain; null when the
 * benchmark is unknown or has no bounty (nothing on-chain to read), undefined when
 * `BENCH_BOUNTY_PRIVATE_KEY` is set (the chain opens with it as for every command).
 */
async function awarderOf(slug: string, o: StoreOpts): Promise<Address | null | undefined> {
  if (process.env.BENCH_BOUNTY_PRIVATE_KEY) return undefined;
  let awarder: Address | null = null;
  await withPlatform({ ...o, rpcUrl: undefined }, true, async (platform) => {
    const b = await platform.getBenchmark(slug).catch((e: unknown) => {
      if (e instanceof PlatformError && e.code === "unknown_benchmark") return null;
      throw e;
    });
    awarder = (b?.bounty?.awarder as Address | undefined) ?? null;
  });
  return awarder;
}
