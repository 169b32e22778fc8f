/** The leaderboard: rank, agent, composite, public score, attempts, wall clock, a 95% Wilson interval, per-task tables once closed. */
import type { ComponentChildren } from "preact";
import { useApp } from "../context.js";
import { Loaded, errorText, useLoad } from "../components/ui.js";
import { LoadMore, usePages } from "../components/paging.js";
import { BenchmarkNav } from "../components/nav.js";
import { boardView, taskTable, type BoardView, type TaskTable } from "../domain/leaderboard.js";
import type { BenchmarkDetail, Leaderboard } from "../api/types.js";
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

/** One page of the board and the per-task credits of its rows' runs (none while open or hidden). */
interface BoardPage extends ScoresSide {
  board: Leaderboard;
  next_offset: number | null;
}

/**
 * The board's page at `offset` and, once closed and visible (served only then, SPEC 6.1; a
 * `buyer_only` board's are its buyer's), the per-task credits of its rows' runs, asked for as soon as
 * the page says so. `scoresFailing`: "show" keeps a failed credits read as the page's error (the
 * first page: the board still shows), "throw" fails the page (a later page is loaded whole or not).
 */
async function boardPage(
  api: Api,
  slug: string,
  offset: number,
  scoresFailing: "show" | "throw",
): Promise<BoardPage> {
  const board = await api.leaderboardPage(slug, offset);
  const page = { board, next_offset: board.next_offset };
  if (board.open || board.leaderboard_visible === false) return { ...page, scores: null, scoresError: null };
  const runIds = board.rows.map((r) => r.run_id);
  if (scoresFailing === "throw")
    return { ...page, scores: await api.taskScores(slug, runIds), scoresError: null };
  return { ...page, ...(await scoresOf(api, slug, runIds)) };
}

async function loadBoard(api: Api, slug: string) {
  // the board's first page and its per-task credits, in parallel with the detail
  const [detail, first] = await Promise.all([api.benchmark(slug), boardPage(api, slug, 0, "show")]);
  return { detail, first };
}

/** The board over the pages loaded so far: its rows, and the per-task credits of their runs. */
function loadedBoard(pages: BoardPage[]): { board: Leaderboard; scores: TaskScores | null } {
  const first = pages[0]!;
  const board = { ...first.board, rows: pages.flatMap((p) => p.board.rows) };
  const scores =
    first.scores === null ? null : { ...first.scores, runs: pages.flatMap((p) => p.scores?.runs ?? []) };
  return { board, scores };
}

/**
 * Whether a next page is of the board the pages shown were read from: the same `board_version` (the
 * API's, equal on every page of one board), kind and open flag (probe21 A-F6).
 */
function sameBoard(first: BoardPage, next: BoardPage): boolean {
  const [a, b] = [first.board, next.board];
  return a.board_version === b.board_version && a.board === b.board && a.open === b.open;
}

/** "N of M rows" (M the board's `total_rows` on its latest page read), or "N rows" when the API sends no total. */
function rowCount(pages: BoardPage[], loaded: number): string {
  const total = pages[pages.length - 1]!.board.total_rows;
  return typeof total === "number" ? `${loaded} of ${total} rows` : `${loaded} rows`;
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
                    {r.credits[o] === null ? "hidden" : (r.credits[o] ?? "--")}
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
        this attempt did not draw; hidden is a private task's credit, withheld until the award.
      </p>
    </>
  );
}

/** The board's pages loaded so far (the first, then one per "Load more rows"), its notes and per-task tables. */
function BoardBody(props: {
  api: Api;
  slug: string;
  detail: BenchmarkDetail;
  first: BoardPage;
  minTasks: number;
}) {
  const { detail, minTasks } = props;
  const more = usePages(
    props.first,
    (offset) => boardPage(props.api, props.slug, offset, "throw"),
    sameBoard,
  );
  const { board, scores } = loadedBoard(more.pages);
  const view = boardView(board, detail, minTasks);
  const visible = board.leaderboard_visible !== false;
  return (
    <>
      <h1>Leaderboard: {detail.title}</h1>
      <p id="board-kind">
        {view.final
          ? "Final board: ranked on the private composite (SPEC 7.1)."
          : (detail.private_tasks ?? 0) > 0
            ? "Public board while the benchmark is open: ranked on the composite of public tasks; nothing shown is computed from private tasks (SPEC 6.1)."
            : "Open board: this benchmark has no private tasks, so its composite is public."}
      </p>
      {visible ? (
        <>
          {more.restarted && (
            <p class="note" id="more-rows-restarted">
              The board changed between two reads (a run was finalized, or the benchmark closed): it was read
              again from its first row.
            </p>
          )}
          <p class="muted" id="board-count">
            {rowCount(more.pages, board.rows.length)}
          </p>
          <Board view={view} minTasks={minTasks} />
          <LoadMore pages={more} id="more-rows" what="rows" />
        </>
      ) : (
        <p>This leaderboard is visible to its buyer only.</p>
      )}
      <p class="note" id="interval-note">
        The interval is a 95% Wilson score interval on the {view.accuracyLabel} of each row's run, over its n
        scored tasks (fractional credit counts as a fractional success). It is computed for display in
        floating point and plays no part in ranking or payouts. Rows scored on fewer than {minTasks} tasks are
        marked provisional.
      </p>
      <h2>Per-task scores</h2>
      <PerTask view={view} visible={visible} scores={scores} scoresError={more.pages[0]!.scoresError} />
    </>
  );
}

/** `#/b/SLUG/leaderboard`: the board's first page; the next ones on demand (probe19 A-F4). */
export function LeaderboardPage(props: { slug: string }) {
  const { api, config } = useApp();
  const load = useLoad(() => loadBoard(api, props.slug), [api, props.slug]);
  return (
    <section>
      <BenchmarkNav slug={props.slug} current="leaderboard" />
      <Loaded load={load} what="the leaderboard">
        {({ detail, first }) => (
          <BoardBody
            key={props.slug}
            api={api}
            slug={props.slug}
            detail={detail}
            first={first}
            minTasks={config.minTasks}
          />
        )}
      </Loaded>
    </section>
  );
}
