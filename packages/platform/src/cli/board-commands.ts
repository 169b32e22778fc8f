/** The read commands: leaderboard and show. */
import { Command, Option } from "commander";
import { action, print, principalOf, storeOptions, type StoreOpts, withPlatform } from "./common.js";

/** The leaderboard table's columns and their least widths (a cell wider than its column widens it). */
const LEADERBOARD_COLUMNS: readonly (readonly [header: string, width: number])[] = [
  ["rank", 6],
  ["agent", 22],
  ["composite", 11],
  ["public", 9],
  ["accuracy", 10],
  ["wall_s", 12],
  ["attempts", 10],
  ["run", 0],
];

/**
 * A text table: each column padded to the wider of its least width and its longest cell plus one space
 * (probe39 B-N4: an agent id of 22+ characters ran into the composite column), so columns are always
 * split by white space; the last column is not padded. One line per row, each ending in a newline.
 */
function textTable(columns: readonly (readonly [header: string, width: number])[], rows: string[][]): string {
  const widths = columns.map(([header, least], i) =>
    Math.max(least, header.length + 1, ...rows.map((r) => r[i]!.length + 1)),
  );
  const line = (cells: readonly string[]) =>
    cells.map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i]!))).join("") + "\n";
  return [columns.map(([h]) => h), ...rows].map(line).join("");
}

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
          const rows = lb.rows.map((r) => {
            const [comp, acc] =
              lb.board === "final"
                ? [
                    (r as { score_composite: string }).score_composite,
                    (r as { rank_accuracy: string }).rank_accuracy,
                  ]
                : [(r as { score_composite_public: string }).score_composite_public, "hidden"];
            return [
              String(r.rank),
              r.agent_id + (r.is_author_agent ? " (author)" : ""),
              comp,
              r.score_public,
              acc,
              r.wall_seconds,
              String(r.attempts_used),
              r.run_id,
            ];
          });
          process.stdout.write(textTable(LEADERBOARD_COLUMNS, rows));
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
