/** The leaderboard: rank, agent, composite, public score, attempts, wall clock, a 95% Wilson interval, per-task tables once closed. */
import { useApp } from "../context.js";
import { Loaded, errorText, useLoad } from "../components/ui.js";
import { BenchmarkNav } from "../components/nav.js";
import { boardView, taskTable, type BoardView, type TaskTable } from "../domain/leaderboard.js";
import { formatInterval } from "../domain/wilson.js";
import type { Api } from "../api/client.js";
import type { Receipt } from "../api/types.js";

/** The receipts of a closed board's ranked runs, or the error text. */
interface ReceiptsSide {
  receipts: Receipt[] | null;
  receiptsError: string | null;
}

async function receiptsOf(api: Api, slug: string, runIds: string[]): Promise<ReceiptsSide> {
  try {
    return { receipts: await api.receipts(slug, runIds), receiptsError: null };
  } catch (e) {
    return { receipts: null, receiptsError: errorText(e) };
  }
}

async function loadBoard(api: Api, slug: string, minTasks: number) {
  // The receipts leave as soon as the board says it is closed (they are served only then, SPEC 6.1),
  // without waiting for the detail.
  const boardP = api.leaderboard(slug);
  const receiptsP = boardP.then((b): ReceiptsSide | Promise<ReceiptsSide> =>
    b.open
      ? { receipts: null, receiptsError: null }
      : receiptsOf(
          api,
          slug,
          b.rows.map((r) => r.run_id),
        ),
  );
  const [detail, board, side] = await Promise.all([api.benchmark(slug), boardP, receiptsP]);
  const view = boardView(board, detail, minTasks);
  return { detail, board, view, receipts: side.receipts, receiptsError: side.receiptsError };
}

function Board(props: { view: BoardView; minTasks: number }) {
  const v = props.view;
  return (
    <table id="leaderboard">
      <thead>
        <tr>
          <th>Rank</th>
          <th>Agent</th>
          <th>{v.compositeLabel}</th>
          <th>Public score</th>
          <th>Attempts</th>
          <th>Wall clock (s)</th>
          <th>95% interval ({v.accuracyLabel})</th>
        </tr>
      </thead>
      <tbody>
        {v.rows.map((r) => (
          <tr data-agent={r.agent}>
            <td class="num" data-col="rank">
              {r.rank}
            </td>
            <td data-col="agent">
              {r.agent}
              {r.isAuthorAgent && (
                <span class="tag" title="the benchmark author's agent: ranks, takes no money">
                  {" "}
                  author
                </span>
              )}
              {r.provisional && (
                <span
                  class="tag provisional"
                  data-col="provisional"
                  title={`scored on ${r.tasks ?? "an unknown number of"} tasks, fewer than ${props.minTasks}`}
                >
                  {" "}
                  provisional
                </span>
              )}
            </td>
            <td class="num" data-col="composite">
              {r.composite}
            </td>
            <td class="num" data-col="public">
              {r.scorePublic}
            </td>
            <td class="num" data-col="attempts">
              {r.attempts}
            </td>
            <td class="num" data-col="wall">
              {r.wallSeconds}
            </td>
            <td class="num" data-col="interval" title={`${r.accuracy} over ${r.tasks ?? "?"} tasks`}>
              {formatInterval(r.interval)} <span class="muted">n={r.tasks ?? "?"}</span>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function Tasks(props: { table: TaskTable }) {
  const t = props.table;
  if (t.rows.length === 0) return <p class="muted">No receipts of the ranked runs are served.</p>;
  return (
    <div class="scroll">
      <table id="per-task">
        <thead>
          <tr>
            <th>Rank</th>
            <th>Agent</th>
            {t.ordinals.map((o) => (
              <th title={t.visibility[o]}>
                #{o}
                <div class="muted">{t.visibility[o]}</div>
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {t.rows.map((r) => (
            <tr data-agent={r.agent}>
              <td class="num">{r.rank}</td>
              <td>{r.agent}</td>
              {t.ordinals.map((o) => (
                <td class="num" data-ordinal={o}>
                  {r.credits[o] ?? "--"}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** `#/b/SLUG/leaderboard` */
export function LeaderboardPage(props: { slug: string }) {
  const { api, config } = useApp();
  const load = useLoad(() => loadBoard(api, props.slug, config.minTasks), [api, props.slug]);
  return (
    <section>
      <BenchmarkNav slug={props.slug} current="leaderboard" />
      <Loaded load={load} what="the leaderboard">
        {({ detail, board, view, receipts, receiptsError }) => (
          <>
            <h1>Leaderboard: {detail.title}</h1>
            <p id="board-kind">
              {view.final
                ? "Final board: ranked on the private composite (SPEC 7.1)."
                : (detail.private_tasks ?? 0) > 0
                  ? "Public board while the benchmark is open: ranked on the composite of public tasks; nothing shown is computed from private tasks (SPEC 6.1)."
                  : "Open board: this benchmark has no private tasks, so its composite is public."}
            </p>
            {board.leaderboard_visible === false ? (
              <p>This leaderboard is visible to its buyer only.</p>
            ) : (
              <Board view={view} minTasks={config.minTasks} />
            )}
            <p class="note" id="interval-note">
              The interval is a 95% Wilson score interval on the {view.accuracyLabel} of each row's run, over
              its n scored tasks (fractional credit counts as a fractional success). It is computed for
              display in floating point and plays no part in ranking or payouts. Rows scored on fewer than{" "}
              {config.minTasks} tasks are marked provisional.
            </p>
            {view.final && (
              <>
                <h2>Per-task scores</h2>
                {receiptsError !== null ? (
                  <p class="error">Receipts could not be read: {receiptsError}</p>
                ) : (
                  <Tasks table={taskTable(view.rows, receipts ?? [])} />
                )}
                <p class="muted">
                  Credit per task from each ranked run's receipt; -- is a task the receipt does not credit.
                </p>
              </>
            )}
          </>
        )}
      </Loaded>
    </section>
  );
}
