/** Phase 9: the verifier checks the pack from the door under the `full` policy; then the Python check. */
import { verifyPack, type VerificationReport } from "@bench-bounty/verifier";
import { join } from "node:path";
import { writeAtomically } from "../chain-tools.js";
import { need, type DemoPhase } from "../context.js";
import { OUTPUT_FILES } from "../options.mjs";
import { runIndependentCheck } from "../independent.js";

/**
 * The demo's judgement of the verifier's report: the verifier's own verdict under the `full` policy
 * (`policy_met`), which accepts a fact `verified` or `not-required` (nothing to check: `regrade` of an
 * award with no winner, SPEC 7.3's k = 0; verifier `policy.ts`). probe37 B-F8: the demo demanded every
 * fact `verified` and failed a correct zero-winner award (`--agents author-baseline`).
 * @param report the verifier's report of the pack
 * @returns the phase's summary line (`policy full met: N/M facts verified, K not required (regrade)`)
 * @throws Error naming the policy applied when it is not `full`, or the facts that keep `full` from being met
 */
export function judgeVerification(report: VerificationReport): string {
  if (report.policy !== "full") throw new Error(`the verifier applied policy ${report.policy}, not full`);
  if (!report.policy_met) throw new Error(`policy full not met: ${report.policy_unmet.join(", ")}`);
  const states = Object.entries(report.facts);
  const verified = states.filter(([, f]) => f.state === "verified").length;
  const notRequired = states.filter(([, f]) => f.state === "not-required").map(([n]) => n);
  return (
    `policy full met: ${verified}/${states.length} facts verified` +
    (notRequired.length > 0 ? `, ${notRequired.length} not required (${notRequired.join(", ")})` : "")
  );
}

/** verify the pack as a stranger (policy full). */
export const verifyPhase: DemoPhase = {
  name: "verify the pack as a stranger (policy full)",
  async run(ctx, p) {
    const { options, result } = ctx;
    const c = need(ctx.chain, "the chain");
    const slug = need(ctx.published, "the published benchmark").slug;
    const doorUrl = need(ctx.serviceUrl, "the service URL");
    const indexer = need(ctx.indexer, "the indexer");
    const url = `${doorUrl}/api/v1/benchmarks/${slug}/award-evidence`;
    p.note(`verifyPack({source: ${url}, rpcUrl, indexerUrl, policy: "full"})`);
    const report = await verifyPack({
      source: url,
      rpcUrl: c.rpcUrl,
      indexerUrl: indexer.url,
      policy: "full",
    });
    result.verification = report;
    const verificationFile = join(options.outDir, OUTPUT_FILES.verification);
    writeAtomically(verificationFile, JSON.stringify(report, null, 2) + "\n");
    result.files.verification = verificationFile;
    const verdict = judgeVerification(report);

    // A second, independent implementation of the checks (Python standard library, SPEC only).
    const independent = runIndependentCheck(need(result.files.pack, "the pack file"), c.rpcUrl);
    result.independent = independent;
    if (!independent.ran) {
      p.note(`independent check (Python): skipped, ${independent.output}`);
    } else {
      for (const line of independent.output.split("\n")) if (line.trim()) p.note(`│ ${line}`);
      if (!independent.passed) throw new Error("the independent Python check of the pack failed (see above)");
    }
    p.summary(verdict + (independent.ran ? "; independent Python check passed" : ""));
  },
};
