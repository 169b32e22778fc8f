/** The benchmarks list with its filters (status, prize, grader type, version) and prize renders. */
import { useState } from "preact/hooks";
import { useApp } from "../context.js";
import { Loaded, useLoad } from "../components/ui.js";
import { LoadMore, usePages } from "../components/paging.js";
import { PrizeCell, PrizeLegend } from "../components/prize.js";
import {
  NO_FILTERS,
  applyFilters,
  filterOptions,
  prizeOf,
  statusOf,
  versionOf,
  type BenchmarkFilters,
} from "../domain/filters.js";
import { href } from "../router.js";
import type { Api } from "../api/client.js";
import type { BenchmarkSummary } from "../api/types.js";

function Select(props: {
  id: string;
  label: string;
  value: string;
  options: string[];
  onChange: (v: string) => void;
}) {
  return (
    <label>
      {props.label}{" "}
      <select
        id={props.id}
        value={props.value}
        onChange={(e) => props.onChange((e.target as HTMLSelectElement).value)}
      >
        <option value="">any</option>
        {props.options.map((o) => (
          <option value={o}>{o}</option>
        ))}
      </select>
    </label>
  );
}

function Table(props: { list: BenchmarkSummary[] }) {
  return (
    <table id="benchmarks">
      <thead>
        <tr>
          <th>Benchmark</th>
          <th>Status</th>
          <th>Tasks (public / private)</th>
          <th>Grader</th>
          <th>Version</th>
          <th>Prize</th>
          <th>Bounty status</th>
        </tr>
      </thead>
      <tbody>
        {props.list.map((b) => (
          <tr data-slug={b.slug}>
            <td>
              <a href={href("benchmark", b.slug)}>{b.title}</a>
              <div class="muted">
                <code>{b.slug}</code>
              </div>
            </td>
            <td data-col="status">{statusOf(b)}</td>
            <td class="num">
              {b.public_tasks ?? "--"} / {b.private_tasks ?? "--"}
            </td>
            <td>{b.grader_type ?? "--"}</td>
            <td>{versionOf(b)}</td>
            <td data-col="prize">
              <PrizeCell render={prizeOf(b)} />
            </td>
            <td>{b.bounty_status ?? "--"}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** The filter selects, in page order: the filter each sets, its element id, label and choices. */
const FILTER_SELECTS: {
  key: keyof BenchmarkFilters;
  id: string;
  label: string;
  options: (o: ReturnType<typeof filterOptions>) => string[];
}[] = [
  { key: "status", id: "f-status", label: "Status", options: (o) => o.status },
  { key: "prize", id: "f-prize", label: "Prize", options: () => ["with", "without"] },
  { key: "graderType", id: "f-grader", label: "Grader type", options: (o) => o.graderType },
  { key: "version", id: "f-version", label: "Version", options: (o) => o.version },
];

/** One page of the list as `Api.benchmarksPage` reads it. */
type ListPage = Awaited<ReturnType<Api["benchmarksPage"]>>;

/**
 * The list with its filters over the benchmarks loaded so far: the first page, then one more page per
 * click on "Load more" (probe16 A-F9: a visit read every page of the list).
 */
function List(props: { api: Api; first: ListPage }) {
  const more = usePages(props.first, (offset) => props.api.benchmarksPage(offset));
  const [f, setF] = useState<BenchmarkFilters>(NO_FILTERS);
  const set = (k: keyof BenchmarkFilters) => (v: string) => setF({ ...f, [k]: v });
  const list = more.pages.flatMap((p) => p.benchmarks);
  const next = more.next;
  const opts = filterOptions(list);
  const shown = applyFilters(list, f);
  return (
    <>
      <form class="filters" onSubmit={(e) => e.preventDefault()}>
        {FILTER_SELECTS.map((x) => (
          <Select
            key={x.key}
            id={x.id}
            label={x.label}
            value={f[x.key]}
            options={x.options(opts)}
            onChange={set(x.key)}
          />
        ))}
        <span class="muted" id="shown-count">
          {next === null
            ? `${shown.length} of ${list.length} shown`
            : `${shown.length} of ${list.length} loaded shown; more to load`}
        </span>
      </form>
      <Table list={shown} />
      <LoadMore pages={more} id="more-benchmarks" what="benchmarks" />
      <PrizeLegend listOnly />
    </>
  );
}

/** `#/`: the first page of the list; the next ones on demand. */
export function BenchmarksPage() {
  const { api } = useApp();
  const load = useLoad(() => api.benchmarksPage(0), [api]);
  return (
    <section>
      <h1>Benchmarks</h1>
      <Loaded load={load} what="the benchmarks">
        {(first) => <List api={api} first={first} />}
      </Loaded>
    </section>
  );
}
