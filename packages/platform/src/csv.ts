/**
 * CSV loader: maps a plain CSV file (header row, comma separated, RFC 4180 quoting) into dataset rows
 * through an explicit {@link CsvMapping}. Cells are kept as their exact text (strings): no float ever
 * enters a dataset from a CSV, so a numeric label like `12.8` becomes the decimal string gold `"12.8"`.
 *
 * Example (the demo's `vega-datasets/data/seattle-weather.csv`, columns
 * `date,precipitation,temp_max,temp_min,wind,weather`):
 * ```ts
 * const input = await loadCsvDataset("seattle-weather.csv", {
 *   decision_ts: "date", label: "weather",
 *   payload: ["date", "precipitation", "temp_max", "temp_min", "wind"],
 * }, { name: "seattle-weather" });
 * ```
 */
import { decodeUtf8Strict } from "./utf8.js";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { parse } from "csv-parse/sync";
import type { DatasetInput } from "./dataset.js";
import { PlatformError } from "./errors.js";
import { readDatasetFile } from "./dataset-file.js";
import type { JsonObject } from "./json.js";

/** How CSV columns become dataset rows. */
export interface CsvMapping {
  /** Column holding the label (what the grader checks). */
  label: string;
  /** Column holding `decision_ts` (ISO-8601; a bare `YYYY-MM-DD` date is midnight UTC). */
  decision_ts: string;
  /**
   * Columns copied into `payload` (default: every column except the label column), in this order. The
   * label column is refused: the payload is shown in every prompt.
   */
  payload?: string[];
  /** `{payload_field: column}`: the column holding the instant at which that payload field became knowable. */
  knowable_at?: Record<string, string>;
  /** Skip this many data rows first (default 0). */
  offset?: number;
  /** Keep every n-th data row after the offset (default 1: all). */
  every?: number;
  /** Keep at most this many rows (default: all). */
  limit?: number;
}

/** Dataset-level fields that the CSV does not carry. */
export type CsvDatasetMeta = Omit<DatasetInput, "rows">;

/**
 * Maps CSV text into a dataset upload.
 * @throws PlatformError `invalid_csv` naming the column or line (1-based, header is line 1)
 */
export function csvToDataset(text: string, mapping: CsvMapping, meta: CsvDatasetMeta): DatasetInput {
  let records: string[][];
  try {
    records = parse(text, { bom: true, skip_empty_lines: true, relax_column_count: false }) as string[][];
  } catch (e) {
    throw new PlatformError("invalid_csv", `CSV: ${(e as Error).message}`, { field: "csv" });
  }
  const header = records[0];
  if (header === undefined)
    throw new PlatformError("invalid_csv", "CSV: the file is empty (expected a header row)", {
      field: "csv",
    });
  const col = new Map<string, number>();
  for (const [i, h] of header.entries()) {
    const name = h.trim();
    const first = col.get(name);
    if (first !== undefined)
      throw new PlatformError(
        "invalid_csv",
        `CSV: the header repeats the column ${JSON.stringify(name)} (columns ${first + 1} and ${i + 1})`,
        { field: "header", column: name },
      );
    col.set(name, i);
  }
  const need = (name: string, field: string): number => {
    const i = col.get(name);
    if (i === undefined) {
      throw new PlatformError(
        "invalid_csv",
        `CSV mapping ${field}: no column ${JSON.stringify(name)} (columns: ${header.join(", ")})`,
        {
          field,
          column: name,
          columns: header,
        },
      );
    }
    return i;
  };
  const labelCol = need(mapping.label, "label");
  const tsCol = need(mapping.decision_ts, "decision_ts");
  if (mapping.payload?.some((name) => name.trim() === mapping.label.trim()))
    throw new PlatformError(
      "invalid_csv",
      `CSV mapping payload: column ${JSON.stringify(mapping.label)} is the label column; ` +
        "a payload column is shown in every prompt and would give the answer away",
      { field: "payload", column: mapping.label },
    );
  const payloadCols = (mapping.payload ?? header.filter((h) => h.trim() !== mapping.label)).map(
    (name) => [name, need(name, "payload")] as const,
  );
  if (payloadCols.length === 0)
    throw new PlatformError("invalid_csv", "CSV mapping payload: no payload column", { field: "payload" });
  const knowCols = Object.entries(mapping.knowable_at ?? {}).map(
    ([field, name]) => [field, need(name, `knowable_at.${field}`)] as const,
  );
  const offset = intOption(mapping.offset, "offset", 0, 0);
  const every = intOption(mapping.every, "every", 1, 1);
  const limit = mapping.limit === undefined ? Infinity : intOption(mapping.limit, "limit", 0, 1);

  const rows: unknown[] = [];
  for (let r = 1 + offset; r < records.length && rows.length < limit; r += every) {
    const rec = records[r]!;
    const payload: JsonObject = {};
    for (const [name, i] of payloadCols) payload[name] = rec[i]!;
    const row: JsonObject = { decision_ts: rec[tsCol]!, payload, label: rec[labelCol]! };
    if (knowCols.length > 0) {
      const ka: JsonObject = {};
      for (const [field, i] of knowCols) ka[field] = rec[i]!;
      row.knowable_at = ka;
    }
    rows.push(row);
  }
  return { ...meta, rows };
}

/**
 * Reads a CSV file and maps it into a dataset upload (see {@link csvToDataset}).
 * @throws PlatformError `invalid_csv` (unreadable file, bad CSV, unknown column)
 */
export async function loadCsvDataset(
  path: string,
  mapping: CsvMapping,
  meta: CsvDatasetMeta,
): Promise<DatasetInput> {
  const bytes = await readDatasetFile(path, "invalid_csv", "path");
  // Line 1 is the header; a data row without quoted newlines sits on line row + 2.
  const text = decodeUtf8Strict(bytes, path, "invalid_csv", {
    rowOfLine: (line) => (line >= 2 ? line - 2 : null),
  });
  return csvToDataset(text, mapping, meta);
}

function intOption(v: number | undefined, field: string, dflt: number, min: number): number {
  if (v === undefined) return dflt;
  if (!Number.isSafeInteger(v) || v < min) {
    throw new PlatformError("invalid_csv", `CSV mapping ${field}: must be an integer >= ${min}`, { field });
  }
  return v;
}

/** Path of `seattle-weather.csv` in the installed `vega-datasets` package (the demo's dataset). */
export function seattleWeatherCsvPath(): string {
  const main = createRequire(import.meta.url).resolve("vega-datasets");
  return join(dirname(main), "..", "data", "seattle-weather.csv");
}

/** The mapping the demo uses for `seattle-weather.csv`: label `weather`, decision_ts `date`, the observations as payload. */
export const SEATTLE_WEATHER_MAPPING: CsvMapping = Object.freeze({
  label: "weather",
  decision_ts: "date",
  payload: ["date", "precipitation", "temp_max", "temp_min", "wind"],
}) as CsvMapping;
