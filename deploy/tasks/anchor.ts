/**
 * `anchor` records a digest in the AnchorRegistry (SPEC 1.2) with a kind;
 * `anchor:check` reads the record back. A digest is given directly, or as a
 * JSON file whose digest is keccak256 of its canonical JSON (SPEC 2), as for
 * receipts and packs.
 */
import { task, types } from "hardhat/config";
import type { ConfigurableTaskDefinition } from "hardhat/types";
import { TaskError, userAction } from "../lib/errors";
import { simulateAndSend, taskContext, withFromParam } from "../lib/context";
import { txLink } from "../lib/network";
import { isoSeconds } from "../lib/time";
import { describeError, readJsonFile } from "../lib/files";
import { contracts, evidence } from "../lib/packages";

type KindName = import("@bench-bounty/contracts").AnchorKindName;

/** The anchor kind of `--kind`: its name and `keccak256("bench-bounty.anchor.<name>")` (SPEC 1.2, @bench-bounty/contracts). */
function parseKind(text: string): { name: KindName; hash: string } {
  const kinds = contracts().ANCHOR_KINDS as Record<string, string>;
  if (!Object.hasOwn(kinds, text)) {
    throw new TaskError(`--kind must be one of ${Object.keys(kinds).join(", ")}, got "${text}".`);
  }
  return { name: text as KindName, hash: kinds[text]! };
}

function kindName(hash: string): string {
  return contracts().anchorKindName(hash) ?? `unknown kind ${hash}`;
}

/** The digest of --digest, or keccak256(canonical JSON) of --file. */
function readDigest(args: { digest?: string; file?: string }): { digest: string; source: string } {
  if ((args.digest === undefined) === (args.file === undefined)) {
    throw new TaskError("Give exactly one of --digest 0x<64 hex> or --file <json file>.");
  }
  if (args.digest !== undefined) {
    if (!/^0x[0-9a-fA-F]{64}$/.test(args.digest))
      throw new TaskError(`--digest must be 0x + 64 hex characters, got "${args.digest}".`);
    if (BigInt(args.digest) === 0n)
      throw new TaskError("--digest is zero: the zero digest cannot be anchored.");
    return { digest: args.digest.toLowerCase(), source: "--digest" };
  }
  const value = readJsonFile(args.file!, "--file");
  try {
    return { digest: evidence().canonicalHash(value), source: `keccak256(canonical JSON of ${args.file})` };
  } catch (e) {
    throw new TaskError(`--file ${args.file}: ${describeError(e)}`);
  }
}

/** The `--digest` / `--file` pair of both anchor tasks ({@link readDigest} takes exactly one). */
function withDigestParams(t: ConfigurableTaskDefinition): ConfigurableTaskDefinition {
  return t
    .addOptionalParam("digest", "0x + 64 hex", undefined, types.string)
    .addOptionalParam(
      "file",
      "JSON file; its digest is keccak256 of its canonical JSON",
      undefined,
      types.string,
    );
}

withFromParam(
  withDigestParams(
    task("anchor", "Anchor a digest (or a JSON file's canonical keccak) in the AnchorRegistry"),
  ),
  "Anchoring account",
)
  .addParam("kind", "commitment | receipt | pack | compute-receipt", undefined, types.string)
  .setAction(
    userAction(async (args: { digest?: string; file?: string; kind: string; from?: string }, hre) => {
      const { digest, source } = readDigest(args);
      const kind = parseKind(args.kind);
      const ctx = await taskContext(hre, { needSigner: true, from: args.from });
      const existing = await ctx.registry.anchorOf(digest);
      if (existing.anchorer !== hre.ethers.ZeroAddress) {
        throw new TaskError(
          `${digest} is already anchored (as ${kindName(existing.kind)}) by ${existing.anchorer} at block ${existing.blockNumber}: the first anchoring is kept forever, nothing to do.`,
        );
      }
      console.log(`Anchoring ${digest} (${source}) as ${kind.name} in AnchorRegistry ${ctx.registryAddress}`);
      const receipt = await simulateAndSend(
        ctx,
        "anchor",
        () => ctx.registry.anchor.staticCall(digest, kind.hash),
        () => ctx.registry.anchor(digest, kind.hash),
      );
      console.log(
        `Anchored ${digest} as ${kind.name} by ${ctx.signer.address} at block ${receipt.blockNumber}`,
      );
      console.log(`  tx   ${receipt.hash}`);
      console.log(`  link ${txLink(ctx.profile, receipt.hash)}`);
    }),
  );

withDigestParams(task("anchor:check", "Show when and by whom a digest (or a JSON file) was anchored"))
  .addOptionalParam("kind", "Expected kind: the check fails if it differs", undefined, types.string)
  .addOptionalParam(
    "atOrBefore",
    "Block the anchoring must be at or before (e.g. the award block)",
    undefined,
    types.int,
  )
  .setAction(
    userAction(async (args: { digest?: string; file?: string; kind?: string; atOrBefore?: number }, hre) => {
      const { digest, source } = readDigest(args);
      const kind = args.kind === undefined ? undefined : parseKind(args.kind);
      const ctx = await taskContext(hre, { needSigner: false });
      const rec = await ctx.registry.anchorOf(digest);
      if (rec.anchorer === hre.ethers.ZeroAddress) {
        throw new TaskError(
          `${digest} (${source}) is NOT anchored in AnchorRegistry ${ctx.registryAddress} on ${ctx.profile.name}.`,
        );
      }
      console.log(`${digest} (${source})`);
      console.log(`  anchored by  ${rec.anchorer}`);
      console.log(`  block        ${rec.blockNumber} (${isoSeconds(rec.timestamp)})`);
      console.log(`  kind         ${kindName(rec.kind)}`);
      if (kind && kind.hash !== rec.kind.toLowerCase()) {
        throw new TaskError(`${digest} is anchored as ${kindName(rec.kind)}, not as ${kind.name}.`);
      }
      if (args.atOrBefore !== undefined && rec.blockNumber > BigInt(args.atOrBefore)) {
        throw new TaskError(
          `${digest} was anchored at block ${rec.blockNumber}, after block ${args.atOrBefore}.`,
        );
      }
      console.log("Anchor check passed.");
    }),
  );
