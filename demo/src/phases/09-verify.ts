/** Phase 9: the verifier checks the pack from the door under the `full` policy; then the Python check. */
import { verifyPack } from "@bench-bounty/verifier";
import { join } from "node:path";
import { writeAtomically } from "../chain-tools.js";
import { need, type DemoPhase } from "../context.js";
import { runIndependentCheck } from "../independent.js";

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
    const verificationFile = join(options.outDir, "verification.json");
    writeAtomically(verificationFile, JSON.stringify(report, null, 2) + "\n");
    result.files.verification = verificationFile;
    const states = Object.entries(report.facts);
    const notVerified = states.filter(([, f]) => f.state !== "verified").map(([n, f]) => `${n}=${f.state}`);
    if (!report.policy_met) throw new Error(`policy full not met: ${report.policy_unmet.join(", ")}`);
    if (notVerified.length > 0) throw new Error(`facts not verified: ${notVerified.join(", ")}`);

    // A second, independent implementation of the checks (Python standard library, SPEC only).
    const independent = runIndependentCheck(need(result.files.pack, "the pack file"), c.rpcUrl);
    result.independent = independent;
    if (!independent.ran) {
      p.note(`independent check (Python): skipped, ${independent.output}`);
    } else {
      for (const line of independent.output.split("\n")) if (line.trim()) p.note(`│ ${line}`);
      if (!independent.passed) throw new Error("the independent Python check of the pack failed (see above)");
    }
    p.summary(
      `policy full met: ${states.length}/${states.length} facts verified` +
        (independent.ran ? "; independent Python check passed" : ""),
    );
  },
};
