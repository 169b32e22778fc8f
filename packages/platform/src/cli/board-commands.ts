/** The read commands: leaderboard and show. */
import { Command, Option } from "commander";
import { action, print, principalOf, storeOptions, type StoreOpts, withPlatform } from "./common.js";

/** Registers the read commands: leaderboard and show. */
export function registerBoardCommands(program: Command): void {
  storeOptions(
    program
      .command("leaderboard")
      .description("the SPEC 7.1 leaderboard (best run per agent)")
      .argument("<slug>"),
  )
    .option("--json", "print JSON")
    .addOption(
      new Option("--board <board>", "public or final (final while open: the author only)").choices([
        "public",
        "final",
      ]),
    )
    .action(
      action(async (slug: string, o: StoreOpts & { json?: boolean; board?: "public" | "final" }) => {
        await withPlatform(o, true, async (platform) => {
          const lb = await platform.leaderboard(slug, {
            viewer: await principalOf(platform, o),
            ...(o.board ? { board: o.board } : {}),
          });
          if (o.json) return print(lb);
          process.stdout.write(`${lb.slug} (${lb.status}, ${lb.board} board, ranked on ${lb.ranked_on})\n`);
          // hidden is not empty (probe33 B-F14: a buyer_only board read as "nobody has run")
          if (!lb.leaderboard_visible)
            return void process.stdout.write(
              `hidden: only the benchmark's author sees this leaderboard (leaderboard_visibility ${lb.leaderboard_visibility})\n`,
            );
          process.stdout.write(
            "rank  agent                 composite  public   accuracy  wall_s      attempts  run\n",
          );
          for (const r of lb.rows) {
            const [comp, acc] =
              lb.board === "final"
                ? [
                    (r as { score_composite: string }).score_composite,
                    (r as { rank_accuracy: string }).rank_accuracy,
                  ]
                : [(r as { score_composite_public: string }).score_composite_public, "hidden"];
            process.stdout.write(
              `${String(r.rank).padEnd(6)}${(r.agent_id + (r.is_author_agent ? " (author)" : "")).padEnd(22)}${comp.padEnd(11)}${r.score_public.padEnd(9)}${acc.padEnd(10)}${r.wall_seconds.padEnd(12)}${String(r.attempts_used).padEnd(10)}${r.run_id}\n`,
            );
          }
        });
      }),
    );

  storeOptions(
    program
      .command("show")
      .description(
        "a benchmark's stored record (never gold; its root once anchored; the plan seed to its author and the keyless operator)",
      )
      .argument("<slug>"),
  ).action(
    action(async (slug: string, o: StoreOpts) => {
      await withPlatform(o, true, async (platform) => {
        print(await platform.benchmarkRecord(await principalOf(platform, o), slug));
      });
    }),
  );
}
