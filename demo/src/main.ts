/**
 * `npm run demo`: the whole bench-bounty prize lifecycle on real data, indexed and verified.
 * See demo/README.md. Exits 0 when every phase succeeded, 1 when one failed or an option is bad,
 * 130/143 on SIGINT/SIGTERM during the run (after stopping every process it started); with
 * `--keep-running`, Ctrl-C after the run exits with the run's status.
 */
import { parseOptionsOrExit } from "./options.mjs";
import { ProcessRegistry } from "./processes.js";
import { runDemo } from "./run.js";
import { REPO_ROOT } from "@bench-bounty/devchain";
import { relative } from "node:path";

/** A path as a command pasted in the repo root can use it (absolute when outside the repo). */
function relativeToRepo(file: string): string {
  const rel = relative(REPO_ROOT, file);
  return rel.startsWith("..") ? file : rel;
}

async function main(): Promise<number> {
  const options = parseOptionsOrExit(process.argv.slice(2));
  const registry = new ProcessRegistry();
  const log = (line: string): void => console.log(line);
  // After a held run, Ctrl-C is the normal end: exit with the run's status instead of 130.
  let heldStatus: number | undefined;
  registry.installSignalHandlers(log, () => heldStatus);
  const result = await runDemo(options, { log, registry, hold: options.keepRunning });
  if (result.files.pack) {
    const pack = relativeToRepo(result.files.pack);
    log(
      `\nVerify the pack yourself (offline, works after the demo has stopped): ./bin/bench-bounty verify ${pack}`,
    );
    if (!options.keepRunning) {
      log(
        "The chain, the indexer and the service stop now; run with --keep-running to verify on-chain and browse them.",
      );
    }
  }
  if (options.keepRunning) {
    heldStatus = result.ok ? 0 : 1;
    log("\n── still running (--keep-running); Ctrl-C stops everything ──");
    if (result.rpcUrl) log(`    chain (RPC, chain id 8453)  ${result.rpcUrl}`);
    if (result.indexerUrl) {
      log(
        `    indexer REST               ${result.indexerUrl}/awards   ${result.indexerUrl}/bounties/${result.bountyId ?? 1}`,
      );
      log(`    indexer GraphQL            ${result.indexerUrl}/graphql`);
    }
    if (result.serviceUrl && result.slug) {
      const b = `${result.serviceUrl}/api/v1/benchmarks/${result.slug}`;
      log(`    web leaderboard            ${result.serviceUrl}/#/b/${result.slug}/leaderboard`);
      log(`    benchmark detail           ${b}`);
      log(`    leaderboard                ${b}/leaderboard`);
      log(`    evidence door (pack)       ${b}/award-evidence`);
    }
    if (result.indexerUrl && result.serviceUrl && result.slug) {
      log(
        `    verify again (full)        ./bin/bench-bounty verify ${result.serviceUrl}/api/v1/benchmarks/${result.slug}/award-evidence ` +
          `--rpc ${result.rpcUrl} --indexer ${result.indexerUrl} --policy full`,
      );
    }
    await new Promise<never>(() => {}); // the SIGINT/SIGTERM handler stops everything and exits
  }
  return result.ok ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(`✗ demo: ${err instanceof Error ? err.message : String(err)}`);
    process.exit(1);
  },
);
