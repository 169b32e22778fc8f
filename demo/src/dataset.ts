/**
 * The demo's dataset: the Seattle weather observations shipped by the
 * `vega-datasets` npm package (`data/seattle-weather.csv`, 1461 daily rows,
 * 2012-2015: date, precipitation (mm), temp_max and temp_min (°C), wind (m/s),
 * weather label: drizzle | fog | rain | snow | sun).
 */
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { keccak256, toHex } from "viem";

const require = createRequire(import.meta.url);

/**
 * Absolute path of `data/seattle-weather.csv` inside the installed `vega-datasets` package. Its
 * `exports` map only exposes the JS entry, so the entry is resolved and the package root found above it.
 * @throws Error when the package or the file is missing (run the install: `npm run setup`)
 */
export function seattleWeatherCsvPath(): string {
  let dir = dirname(require.resolve("vega-datasets"));
  while (!existsSync(join(dir, "package.json"))) {
    const up = dirname(dir);
    if (up === dir) throw new Error("vega-datasets: package root not found above its entry point");
    dir = up;
  }
  const csv = join(dir, "data", "seattle-weather.csv");
  if (!existsSync(csv)) throw new Error(`vega-datasets: ${csv} is missing`);
  return csv;
}

/**
 * Picks `size` items deterministically for a seed: items are ordered by
 * `keccak256("<seed>:<key>")` and the first `size` are kept, then returned in
 * their original order. The same seed and keys always give the same sample.
 * @throws RangeError when `size` exceeds the number of items.
 */
export function sampleBySeed<T>(
  items: readonly T[],
  size: number,
  seed: number,
  key: (item: T) => string,
): T[] {
  if (size > items.length) {
    throw new RangeError(`--size ${size} exceeds the ${items.length} rows of the dataset`);
  }
  const ranked = items.map((item, index) => ({ index, h: keccak256(toHex(`${seed}:${key(item)}`)) }));
  ranked.sort((a, b) => (a.h < b.h ? -1 : a.h > b.h ? 1 : a.index - b.index));
  const keep = ranked
    .slice(0, size)
    .map((r) => r.index)
    .sort((a, b) => a - b);
  return keep.map((i) => items[i] as T);
}

/**
 * The prompt each task shows: the day's observations, never the label. The
 * agents in `demo/agents/` read these field names.
 */
export const PROMPT_TEMPLATE =
  "Seattle, {payload.date}: precipitation {payload.precipitation} mm, " +
  "max temperature {payload.temp_max} °C, min temperature {payload.temp_min} °C, wind {payload.wind} m/s. " +
  "What was the weather that day? Answer with one word: drizzle, fog, rain, snow or sun.";
