/** The leaderboard: rank, agent, composite, public score, attempts, wall clock, a 95% Wilson interval, per-task tables once closed. */
import type { ComponentChildren } from "preact";
import { useApp } from "../context.js";
import { Loaded, errorText, useLoad } from "../components/ui.js";
import { BenchmarkNav } from "../components/nav.js";
import { boardView, taskTable, type BoardView, type TaskTable } from "../domain/leaderboard.js";
import { formatInterval } from "../domain/wilson.js";
import type { Api } from "../api/client.js";
import type { TaskScores } from "../api/task-scores.js";

/** The per-task credits of a closed board (or why there are none), or the error text. */
interface ScoresSide {
  scores: TaskScores | null;
  scoresError: string | null;
}

async function scoresOf(api: Api, slug: string, runIds: string[]): Promise<ScoresSide> {
  try {
    return { scores: await api.taskScores(slug, runIds), scoresError: null };
  } catch (e) {
    return { scores: null, scoresError: errorText(e) };
  }
}

async function loadBoard(api: Api, slug: string, minTasks: number) {
  // The per-task credits are asked for as soon as the board says it is closed (served only then,
  // SPEC 6.1) and visible (a buyer_only board's are its buyer's), without waiting for the detail.
  const boardP = api.leaderboard(slug);
  const scoresP = boardP.then((b): ScoresSide | Promise<ScoresSide> =>
    b.open || b.leaderboard_visible === false
      ? { scores: null, scoresError: null }
      : scoresOf(
          api,
          slug,
          b.rows.map((r) => r.run_id),
        ),
  );
  const [detail, board, side] = await Promise.all([api.benchmark(slug), boardP, scoresP]);
  const view = boardView(board, detail, minTasks);
  return { detail, board, view, scores: side.scores, scoresError: side.scoresError };
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
            <NumCell col="composite">{r.composite}</NumCell>
            <NumCell col="public">{r.scorePublic}</NumCell>
            <NumCell col="attempts">{r.attempts}</NumCell>
            <NumCell col="wall">{r.wallSeconds}</NumCell>
            <td class="num" data-col="interval" title={`${r.accuracy} over ${r.tasks ?? "?"} tasks`}>
              {formatInterval(r.interval)} <span class="muted">n={r.tasks ?? "?"}</span>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** A numeric cell of the board, named by its `data-col`. */
function NumCell(props: { col: string; children: ComponentChildren }) {
  return (
    <td class="num" data-col={props.col}>
      {props.children}
    </td>
  );
}

function Tasks(props: { table: TaskTable }) {
  const t = props.table;
  if (t.rows.length === 0) return <p class="muted">No ranked run to show.</p>;
  return (
    <div class="scroll">
      <table id="per-task">
        <thead>
          <tr>
            <th>Rank</th>
            <th>Agent</th>
            {t.ordinals.map((o) => (
              <th title={t.visibility[o]} data-ordinal={o}>
                #{o}
                <div class="muted">{t.visibility[o]}</div>
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {t.rows.map((r) => (
            <tr data-agent={r.agent} data-run={r.runId}>
              <td class="num">{r.rank}</td>
              <td>{r.agent}</td>
              {r.served ? (
                t.ordinals.map((o) => (
                  <td class="num" data-ordinal={o}>
                    {r.credits[o] ?? "--"}
                  </td>
                ))
              ) : (
                <td class="muted" colSpan={t.ordinals.length} data-col="not-served">
                  the API served no per-task credits for this run
                </td>
              )}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** The per-task section: the table once closed, else what is not shown yet and why. */
function PerTask(props: {
  view: BoardView;
  visible: boolean;
  scores: TaskScores | null;
  scoresError: string | null;
}) {
  if (!props.visible)
    return <p id="per-task-note">Per-task scores of this benchmark are visible to its buyer only.</p>;
  if (!props.view.final)
    return (
      <p id="per-task-note">
        Per-task scores are shown once the benchmark closes: while it is open nothing per-task is served to
        anyone but its author (SPEC 6.1).
      </p>
    );
  if (props.scoresError !== null)
    return <p class="error">Per-task scores could not be read: {props.scoresError}</p>;
  return (
    <>
      <Tasks table={taskTable(props.view.rows, props.scores!)} />
      <p class="muted" id="per-task-note">
        {props.scores!.note} Credit per task of each ranked run, regraded by the server; -- is a public task
        this attempt did not draw.
      </p>
    </>
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
        {({ detail, board, view, scores, scoresError }) => (
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
            <h2>Per-task scores</h2>
            <PerTask
              view={view}
              visible={board.leaderboard_visible !== false}
              scores={scores}
              scoresError={scoresError}
            />
          </>
        )}
      </Loaded>
    </section>
  );
}
