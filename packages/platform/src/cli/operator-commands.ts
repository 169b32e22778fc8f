/** The operator commands: anchor, close, award, evidence. */
import { Command } from "commander";
import { action, print, principalOf, storeOptions, type StoreOpts, withPlatform } from "./common.js";
import { terminalJsonText } from "../terminal.js";

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
        print(await platform.award(await principalOf(platform, o), slug));
      });
    }),
  );

  storeOptions(
    program
      .command("evidence")
      .description("print the stored award evidence pack (or why there is none)")
      .argument("<slug>"),
  ).action(
    action(async (slug: string, o: StoreOpts) => {
      await withPlatform(o, true, async (platform) => {
        const r = await platform.awardEvidence(slug);
        // the exact bytes when piped (`> pack.json`); on a terminal, the agents' answers in it escaped
        if (r.kind === "pack") {
          const text = Buffer.from(r.bytes).toString("utf8");
          process.stdout.write((process.stdout.isTTY ? terminalJsonText(text) : text) + "\n");
        } else {
          print({ error: { code: "award_evidence_unavailable", reason: r.reason, message: r.message } });
          process.exitCode = 1;
        }
      });
    }),
  );
}
