/**
 * `anchor` records a digest in the AnchorRegistry (SPEC 1.2) with a kind;
 * `anchor:check` reads the record back. A digest is given directly, or as a
 * JSON file: an evidence pack gives its `pack_hash` (SPEC 8), a served receipt
 * answer its `receipt_hash` (SPEC 4), a commitment file its root and a test-set
 * file its commitment root (SPEC 3), as `bounty:lock` reads them, any other
 * document keccak256 of its canonical JSON (SPEC 2) (see `readDigest`).
 */
import { task, types } from "hardhat/config";
import type { ConfigurableTaskDefinition } from "hardhat/types";
import { TaskError, userAction } from "../lib/errors";
import { simulateAndSend, taskContext, withFromParam } from "../lib/context";
import { txLink } from "../lib/network";
import { isoSeconds } from "../lib/time";
import { asObject, describeError, readJsonFile } from "../lib/files";
import { contracts, evidence } from "../lib/packages";
import { anchorKindText, squatPrefix, wrongKindText } from "../lib/anchors";
import { commitmentOf, isCommitmentDocument, testSetCommitment, testSetRowsOf } from "../lib/commitment";

type KindName = import("@bench-bounty/contracts").AnchorKindName;

/** The anchor kind of `--kind`: its name and `keccak256("bench-bounty.anchor.<name>")` (SPEC 1.2, @bench-bounty/contracts). */
function parseKind(text: string): { name: KindName; hash: string } {
  const kinds = contracts().ANCHOR_KINDS as Record<string, string>;
  if (!Object.hasOwn(kinds, text)) {
    throw new TaskError(`--kind must be one of ${Object.keys(kinds).join(", ")}, got "${text}".`);
  }
  return { name: text as KindName, hash: kinds[text]! };
}

/** The blocks of a served receipt answer (`GET .../receipt`: `{receipt, receipt_hash}`). */
const RECEIPT_ANSWER_KEYS = ["receipt", "receipt_hash"];

/**
 * The digest of --digest, or of the JSON document of --file by what the document is (one rule per
 * kind, the evidence library's): an evidence pack (it has `pack_hash`, or `--kind pack`) gives its
 * `pack_hash` recomputed with `packHash` (SPEC 8: keccak256 of the canonical JSON of its four hashed
 * blocks, not of the whole file; probe27 C-F5: a correctly anchored pack was reported NOT anchored); the
 * server's receipt answer `{receipt, receipt_hash}` gives `receiptHash(receipt)` and a bare receipt
 * (`schema` `bench-bounty.receipt.v1`) its `receiptHash` (SPEC 4); a commitment file (`{root, leafCount}`
 * or the platform's `GET .../commitment` answer: `commitmentOf`) its root and a test-set file (rows or
 * `{test_set}`) its SPEC 3 root (`testSetCommitment`), the readings of `bounty:lock --commitment` /
 * `--test-set` (probe40 C-F2: their canonical keccak was anchored and checked instead); any other
 * document keccak256 of its canonical JSON (SPEC 2). A `pack_hash` or `receipt_hash` in the file that
 * differs from the recomputed one is refused, naming both.
 *
 * One rule for the kind a file's digest may be anchored (or checked) as (probe40 V-F3: a receipt answer
 * was anchored with `--kind commitment`): a pack's only as `pack`, a receipt's (bare or served) only as
 * `receipt`, a commitment's or test set's root only as `commitment`; `--kind pack` or `--kind commitment`
 * with a document that is none of these is refused too. Each refusal comes before anything is read
 * on-chain or sent.
 * @param kind `--kind` as given (undefined: `anchor:check` without `--kind`, any document's digest)
 * @throws TaskError naming `--digest`, or `--file` and the JSON path of what is wrong, or the kind the
 *   file's digest takes
 */
function readDigest(
  args: { digest?: string; file?: string },
  kind?: string,
): { digest: string; source: string; pack?: Record<string, unknown> } {
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
  const file = args.file!;
  const value = readJsonFile(file, "--file");
  const ev = evidence();
  const obj =
    typeof value === "object" && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  /** The recomputed digest, refusing a declared one (`$.<declared>`) that differs. */
  const checked = (digest: string, declared: string, source: string) => {
    const stated = obj?.[declared];
    if (stated !== undefined && (typeof stated !== "string" || stated.toLowerCase() !== digest))
      throw new TaskError(
        `--file ${file} $.${declared} is ${JSON.stringify(stated)} but recomputed it is ${digest}: the file was edited, or is not what it says. Nothing to compare it with on-chain.`,
      );
    return { digest, source };
  };
  /** Refuses a `--kind` other than `only`, the one kind the digest of this file (`what`: `it`) is anchored as. */
  const onlyAs = (only: KindName, what: string, it: string) => {
    if (kind !== undefined && kind !== only)
      throw new TaskError(
        `--file ${file} is ${what}: anchor ${it} with --kind ${only}, or give --digest. Nothing was sent.`,
      );
  };
  /** The pack's `pack_hash`, recomputed (SPEC 8; `packHash` refuses a document that is no pack). */
  const asPack = () => ({
    ...checked(
      ev.packHash(value as Parameters<typeof ev.packHash>[0]),
      "pack_hash",
      `pack_hash of ${file}, recomputed (SPEC 8)`,
    ),
    pack: obj!,
  });
  try {
    if (obj !== undefined && obj.pack_hash !== undefined) {
      onlyAs("pack", "an evidence pack", "its pack_hash");
      return asPack();
    }
    if (obj !== undefined && RECEIPT_ANSWER_KEYS.every((k) => obj[k] !== undefined)) {
      onlyAs("receipt", "a receipt answer ({receipt, receipt_hash})", "its receipt_hash");
      return checked(
        ev.receiptHash(obj.receipt as Record<string, unknown>),
        "receipt_hash",
        `receipt_hash of ${file} $.receipt, recomputed (SPEC 4)`,
      );
    }
    if (obj !== undefined && obj.schema === ev.RECEIPT_SCHEMA) {
      onlyAs("receipt", `a receipt ($.schema ${ev.RECEIPT_SCHEMA})`, "its receipt hash");
      return { digest: ev.receiptHash(obj), source: `keccak256(canonical JSON of ${file})` };
    }
    // a pack without its pack_hash (it has a `test_set` block too): read as a pack, SPEC 8
    if (kind === "pack") return asPack();
    // a commitment or a test set means what it means to bounty:lock: its root (probe40 C-F2)
    if (isCommitmentDocument(value)) {
      onlyAs("commitment", "a commitment", "its root");
      return { digest: commitmentOf(value, `--file ${file}`).root, source: `commitment root of ${file}` };
    }
    // a JSON array (or {test_set: [...]}) is a test set when its rows commit (SPEC 3); one that does not is
    // any other document, read as such unless --kind commitment asks for a test set (probe40 V-N1: every
    // array was refused as a test set, `["a","b"]` anchored as compute-receipt included)
    if (testSetRowsOf(value) !== undefined) {
      const testSet = () => ({
        digest: testSetCommitment(value, `--file ${file}`).root,
        source: `test set's commitment root of ${file}, committed here (SPEC 3)`,
      });
      if (kind === "commitment") return testSet();
      let committed: { digest: string; source: string } | undefined;
      try {
        committed = testSet();
      } catch (e) {
        if (!(e instanceof TaskError)) throw e;
      }
      if (committed !== undefined) {
        onlyAs("commitment", "a test set", "its root");
        return committed;
      }
    }
    if (kind === "commitment")
      throw new TaskError(
        `--file ${file} is no commitment: --kind commitment takes a {root, leafCount} file, the platform's GET /api/v1/benchmarks/<slug>/commitment answer, or a test-set file (its rows, or {test_set}), as bounty:lock does; or give --digest. Nothing was sent.`,
      );
    return { digest: ev.canonicalHash(value), source: `keccak256(canonical JSON of ${file})` };
  } catch (e) {
    if (e instanceof TaskError) throw e;
    throw new TaskError(
      `--file ${file}: ${describeError(e)}${kind === "pack" ? " (--kind pack: the file must be an evidence pack, SPEC 8)" : ""}`,
    );
  }
}

/**
 * Refuses anchoring an evidence pack from an account that is not its bounty's awarder, or on another
 * chain or BenchmarkBounty than the pack's (probe33 C-F9: a forgotten `--from` anchored it from account
 * #0). The verifier's `pack_anchor` counts only the awarder's anchor on the pack's chain, and a digest
 * is anchored once for ever: such an anchor would make the pack's anchor unverifiable for good.
 * @param pack the pack as read ({@link readDigest}), its `benchmark` block giving the bounty
 * @throws TaskError naming the JSON path or the awarder and `--from`; nothing is sent
 */
async function refusePackAnchorNotCounted(
  file: string,
  pack: Record<string, unknown>,
  ctx: Awaited<ReturnType<typeof taskContext>>,
): Promise<void> {
  const where = `--file ${file}`;
  const bench = asObject(pack.benchmark, `${where} $.benchmark`);
  const refuse = (why: string) =>
    new TaskError(`${where}: ${why}: its pack_anchor could never verify. Nothing was sent.`);
  if (bench.chain_id !== ctx.profile.chainId)
    throw refuse(
      `$.benchmark.chain_id is ${JSON.stringify(bench.chain_id)}, not the chain id ${ctx.profile.chainId} of --network ${ctx.profile.name}`,
    );
  if (
    typeof bench.bounty_contract !== "string" ||
    bench.bounty_contract.toLowerCase() !== ctx.bountyAddress.toLowerCase()
  )
    throw refuse(
      `$.benchmark.bounty_contract is ${JSON.stringify(bench.bounty_contract)}, not the BenchmarkBounty ${ctx.bountyAddress} of --network ${ctx.profile.name}`,
    );
  if (typeof bench.bounty_id !== "string" || !/^[1-9][0-9]{0,77}$/.test(bench.bounty_id))
    throw refuse(`$.benchmark.bounty_id must be a decimal string, got ${JSON.stringify(bench.bounty_id)}`);
  const { awarder } = await ctx.bounty.getBounty(BigInt(bench.bounty_id));
  if (ctx.signer.address.toLowerCase() !== awarder.toLowerCase())
    throw new TaskError(
      `${where}: ${ctx.signer.address} is not the awarder of bounty ${bench.bounty_id} (${awarder}): the verifier's pack_anchor counts only the awarder's anchor, and a digest is anchored once for ever; anchor it with --from ${awarder}. Nothing was sent.`,
    );
}

/** The `--digest` / `--file` pair of both anchor tasks ({@link readDigest} takes exactly one). */
function withDigestParams(t: ConfigurableTaskDefinition): ConfigurableTaskDefinition {
  return t
    .addOptionalParam("digest", "0x + 64 hex", undefined, types.string)
    .addOptionalParam(
      "file",
      "JSON file: a pack gives its pack_hash, a {receipt, receipt_hash} answer its receipt_hash, a commitment ({root, leafCount} or GET .../commitment) its root, a test set its SPEC 3 root, else keccak256 of its canonical JSON",
      undefined,
      types.string,
    );
}

withFromParam(
  withDigestParams(
    task("anchor", "Anchor a digest (or a JSON file's digest: see --file) in the AnchorRegistry"),
  ),
  "Anchoring account",
)
  .addParam("kind", "commitment | receipt | pack | compute-receipt", undefined, types.string)
  .setAction(
    userAction(async (args: { digest?: string; file?: string; kind: string; from?: string }, hre) => {
      const kind = parseKind(args.kind);
      const { digest, source, pack } = readDigest(args, kind.name);
      const ctx = await taskContext(hre, { needSigner: true, from: args.from });
      if (pack !== undefined) await refusePackAnchorNotCounted(args.file!, pack, ctx);
      const existing = await ctx.registry.anchorOf(digest);
      if (existing.anchorer !== hre.ethers.ZeroAddress) {
        // another kind (a squat, or the signer's own slip) costs the facts that read this kind for good
        // (probe34 C-F3: it said "nothing to do"); the same kind is done already
        const wrong = wrongKindText(digest, existing, kind.name);
        if (wrong !== null)
          throw new TaskError(
            `${squatPrefix(existing.anchorer, ctx.signer.address)}${wrong}. Nothing was sent.`,
          );
        // a pack anchored as a pack by another account: the verifier's pack_anchor counts only the
        // bounty's awarder's anchor (SPEC 9), so that anchoring is a squat too, not "nothing to do"
        if (kind.name === "pack" && squatPrefix(existing.anchorer, ctx.signer.address) !== "")
          throw new TaskError(
            `squatted: ${digest} was anchored first as pack by ${existing.anchorer} in block ${existing.blockNumber}, not by ${ctx.signer.address}: the registry keeps the first anchoring, and the verifier's pack_anchor (SPEC 9) counts only the bounty's awarder's anchor, so unless ${existing.anchorer} is the awarder the pack's pack_anchor fact can never verify. Nothing was sent.`,
          );
        throw new TaskError(
          `${digest} is already anchored (as ${kind.name}) by ${existing.anchorer} at block ${existing.blockNumber}: the first anchoring is kept forever, nothing to do.`,
        );
      }
      console.log(`Anchoring ${digest} (${source}) as ${kind.name} in AnchorRegistry ${ctx.registryAddress}`);
      const receipt = await simulateAndSend(
        ctx,
        "anchor",
        (o) => ctx.registry.anchor.staticCall(digest, kind.hash, o),
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
      const kind = args.kind === undefined ? undefined : parseKind(args.kind);
      const { digest, source } = readDigest(args, kind?.name);
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
      console.log(`  kind         ${anchorKindText(rec.kind)}`);
      const wrong = kind && wrongKindText(digest, rec, kind.name);
      if (wrong) throw new TaskError(`${wrong}.`);
      if (args.atOrBefore !== undefined && rec.blockNumber > BigInt(args.atOrBefore)) {
        throw new TaskError(
          `${digest} was anchored at block ${rec.blockNumber}, after block ${args.atOrBefore}.`,
        );
      }
      console.log("Anchor check passed.");
    }),
  );
