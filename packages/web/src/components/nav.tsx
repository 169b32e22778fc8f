/** The tabs of one benchmark. */
import { href } from "../router.js";

type Tab = "benchmark" | "leaderboard" | "award" | "evidence";
const TABS: [Tab, string][] = [
  ["benchmark", "Overview"],
  ["leaderboard", "Leaderboard"],
  ["award", "Award"],
  ["evidence", "Evidence"],
];

export function BenchmarkNav(props: { slug: string; current: Tab }) {
  return (
    <nav class="tabs" aria-label="benchmark pages">
      <a href="#/">All benchmarks</a>
      {TABS.map(([t, label]) => (
        <a href={href(t, props.slug)} aria-current={t === props.current ? "page" : undefined}>
          {label}
        </a>
      ))}
    </nav>
  );
}
