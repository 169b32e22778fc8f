/** The benchmarks list with its filters (status, prize, grader type, version) and prize renders. */
import { useState } from "preact/hooks";
import { useApp } from "../context.js";
import { Loaded, useLoad } from "../components/ui.js";
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

/** `#/` */
export function BenchmarksPage() {
  const { api } = useApp();
  const load = useLoad(() => api.benchmarks(), [api]);
  const [f, setF] = useState<BenchmarkFilters>(NO_FILTERS);
  const set = (k: keyof BenchmarkFilters) => (v: string) => setF({ ...f, [k]: v });
  return (
    <section>
      <h1>Benchmarks</h1>
      <Loaded load={load} what="the benchmarks">
        {(list) => {
          const opts = filterOptions(list);
          const shown = applyFilters(list, f);
          return (
            <>
              <form class="filters" onSubmit={(e) => e.preventDefault()}>
                <Select
                  id="f-status"
                  label="Status"
                  value={f.status}
                  options={opts.status}
                  onChange={set("status")}
                />
                <Select
                  id="f-prize"
                  label="Prize"
                  value={f.prize}
                  options={["with", "without"]}
                  onChange={set("prize")}
                />
                <Select
                  id="f-grader"
                  label="Grader type"
                  value={f.graderType}
                  options={opts.graderType}
                  onChange={set("graderType")}
                />
                <Select
                  id="f-version"
                  label="Version"
                  value={f.version}
                  options={opts.version}
                  onChange={set("version")}
                />
                <span class="muted" id="shown-count">
                  {shown.length} of {list.length} shown
                </span>
              </form>
              <Table list={shown} />
              <PrizeLegend listOnly />
            </>
          );
        }}
      </Loaded>
    </section>
  );
}
