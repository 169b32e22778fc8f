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
import { MAX_DATASET_ROWS, rowCountIssue, tooManyMembersMessage, type DatasetInput } from "./dataset.js";
import { PlatformError, throwRowIssues } from "./errors.js";
import { readDatasetFile } from "./dataset-file.js";
import { setOwn, type JsonObject } from "./json.js";

/**
 * How CSV columns become dataset rows. A column's name is its header cell trimmed (`date, x` has the
 * columns `date` and `x`), and every name below is trimmed the same way. Any name is a payload key as it
 * is, `__proto__`, `constructor` and `prototype` included (kept as plain data, so in the row's canonical
 * JSON and its hash, SPEC 2 / 6.1).
 */
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
 * Maps CSV text into a dataset upload. The text is parsed record by record and each kept record becomes
 * a row as it is read: no list of every record is built, reading stops once `limit` rows are kept, and a
 * file with more than {@link MAX_DATASET_ROWS} kept rows is refused at the first row over it, the rest
 * unread (probe28 B-F8: a 209 MB CSV was parsed whole, 391 s and 4.5 GB, before being refused).
 * @returns `{...meta, rows}`: each row `{decision_ts, payload: {column: cell}, label, knowable_at?}`, cells
 *   as their exact text, payload keys the trimmed column names
 * @throws PlatformError `invalid_csv` naming the column or line (1-based, header is line 1): `details
 *   {field, column, columns}` for a name no header column has (`columns`: the trimmed header names);
 *   `{field, column}` for an empty name in the mapping, a payload column listed twice, or (no payload
 *   list) a header column with no name that would be a payload field;
 *   `invalid_dataset` on field `rows` (`details {limit, rows_read}`) when a row past
 *   {@link MAX_DATASET_ROWS} is read (the dataset's one row-count rule, {@link rowCountIssue});
 *   `invalid_csv` on field `payload` (`details {columns}`) when the payload would have more members
 *   than a row's object may (`MAX_ROW_OBJECT_MEMBERS`, {@link tooManyMembersMessage}), before any row
 */
export function csvToDataset(text: string, mapping: CsvMapping, meta: CsvDatasetMeta): DatasetInput {
  const offset = intOption(mapping.offset, "offset", 0, 0);
  const every = intOption(mapping.every, "every", 1, 1);
  const limit = mapping.limit === undefined ? Infinity : intOption(mapping.limit, "limit", 0, 1);
  let columns: CsvColumns | null = null;
  let record = 0; // data records read (the header is not one)
  const rows: unknown[] = [];
  const full = new Error("limit reached"); // thrown to stop reading once `limit` rows are kept
  const onRecord = (rec: string[]): null => {
    if (columns === null) {
      columns = csvColumns(rec, mapping);
      return null;
    }
    record += 1;
    if (record <= offset || (record - 1 - offset) % every !== 0) return null;
    const tooMany = rowCountIssue(rows.length + 1, true);
    if (tooMany)
      throwRowIssues("invalid_dataset", [tooMany], "dataset", {
        limit: MAX_DATASET_ROWS,
        rows_read: rows.length + 1,
      });
    rows.push(csvRow(rec, columns));
    if (rows.length >= limit) throw full;
    return null;
  };
  try {
    parse(text, { ...CSV_PARSE, relax_column_count: false, on_record: onRecord });
  } catch (e) {
    if (e instanceof PlatformError) throw e;
    if (e !== full) throw new PlatformError("invalid_csv", `CSV: ${(e as Error).message}`, { field: "csv" });
  }
  if (columns === null)
    throw new PlatformError("invalid_csv", "CSV: the file is empty (expected a header row)", {
      field: "csv",
    });
  return { ...meta, rows };
}

/** Where the mapping's fields sit in a record (0-based column indexes). */
interface CsvColumns {
  label: number;
  decision_ts: number;
  payload: (readonly [string, number])[];
  knowable_at: (readonly [string, number])[];
}

/** The mapping's columns found in the header record; throws `invalid_csv` as {@link csvToDataset} says. */
function csvColumns(header: string[], mapping: CsvMapping): CsvColumns {
  // One rule for a column's name (probe27 B-F4): its header cell trimmed, for the lookup, the default
  // payload list and the payload's keys alike; a name in the mapping is trimmed the same way.
  const names = header.map(columnName);
  const col = new Map<string, number>();
  for (const [i, name] of names.entries()) {
    const first = col.get(name);
    if (first !== undefined)
      throw new PlatformError(
        "invalid_csv",
        `CSV: the header repeats the column ${JSON.stringify(name)} (columns ${first + 1} and ${i + 1})`,
        { field: "header", column: name },
      );
    col.set(name, i);
  }
  const need = (column: string, field: string): number => {
    const name = columnName(column);
    // a header cell with no name (`date,label,`) is no column to map: it would become a payload key ""
    if (name === "")
      throw new PlatformError("invalid_csv", `CSV mapping ${field}: an empty column name`, {
        field,
        column: name,
      });
    const i = col.get(name);
    if (i === undefined) {
      throw new PlatformError(
        "invalid_csv",
        `CSV mapping ${field}: no column ${JSON.stringify(name)} (columns: ${names.map((n) => JSON.stringify(n)).join(", ")})`,
        {
          field,
          column: name,
          columns: names,
        },
      );
    }
    return i;
  };
  const labelCol = need(mapping.label, "label");
  const tsCol = need(mapping.decision_ts, "decision_ts");
  const label = columnName(mapping.label);
  if (mapping.payload?.some((name) => columnName(name) === label))
    throw new PlatformError(
      "invalid_csv",
      `CSV mapping payload: column ${JSON.stringify(label)} is the label column; ` +
        "a payload column is shown in every prompt and would give the answer away",
      { field: "payload", column: label },
    );
  // the default payload is every other column: one with no name in the header is refused, never taken
  // as a payload field "" (probe30 B-F7); a column listed twice is refused, never copied twice
  const unnamed = names.findIndex((name, i) => name === "" && i !== labelCol);
  if (mapping.payload === undefined && unnamed >= 0)
    throw new PlatformError(
      "invalid_csv",
      `CSV mapping payload: the header's column ${unnamed + 1} has no name, so it cannot be a payload field: ` +
        "name it in the header, or list the payload columns",
      { field: "payload", column: "" },
    );
  const listed = new Set<string>();
  for (const name of mapping.payload?.map(columnName) ?? []) {
    if (listed.has(name))
      throw new PlatformError(
        "invalid_csv",
        `CSV mapping payload: the column ${JSON.stringify(name)} is listed twice`,
        { field: "payload", column: name },
      );
    listed.add(name);
  }
  const payloadCols = (mapping.payload?.map(columnName) ?? names.filter((name) => name !== label)).map(
    (name) => [name, need(name, "payload")] as const,
  );
  if (payloadCols.length === 0)
    throw new PlatformError("invalid_csv", "CSV mapping payload: no payload column", { field: "payload" });
  // a row's payload within the dataset's one width rule, refused before any row is read (probe30 B-F5:
  // 200 rows of 20,000 columns took 92 s and 1.3 GB before validation)
  const wide = tooManyMembersMessage(payloadCols.length, "the payload (one member per payload column)");
  if (wide !== null)
    throw new PlatformError(
      "invalid_csv",
      `CSV mapping payload: ${wide}; name fewer columns with a payload mapping`,
      {
        field: "payload",
        columns: payloadCols.length,
      },
    );
  const knowCols = Object.entries(mapping.knowable_at ?? {}).map(
    ([field, name]) => [field, need(name, `knowable_at.${field}`)] as const,
  );
  return { label: labelCol, decision_ts: tsCol, payload: payloadCols, knowable_at: knowCols };
}

/** One data record as a dataset row. */
function csvRow(rec: string[], c: CsvColumns): JsonObject {
  // a column may be named `__proto__`: set as an own member, it is kept (probe27 B-F3: assigned, it was dropped)
  const payload: JsonObject = {};
  for (const [name, i] of c.payload) setOwn(payload, name, rec[i]!);
  const row: JsonObject = { decision_ts: rec[c.decision_ts]!, payload, label: rec[c.label]! };
  if (c.knowable_at.length > 0) {
    const ka: JsonObject = {};
    for (const [field, i] of c.knowable_at) setOwn(ka, field, rec[i]!);
    row.knowable_at = ka;
  }
  return row;
}

/**
 * Reads a CSV file and maps it into a dataset upload (see {@link csvToDataset}).
 * @throws PlatformError `invalid_csv` (unreadable file, bad CSV, unknown column; invalid UTF-8 naming
 *   its byte offset, line and data row, {@link csvRowAtByte})
 */
export async function loadCsvDataset(
  path: string,
  mapping: CsvMapping,
  meta: CsvDatasetMeta,
): Promise<DatasetInput> {
  const bytes = await readDatasetFile(path, "invalid_csv", "path");
  const text = decodeUtf8Strict(bytes, path, "invalid_csv", { rowAtByte: csvRowAtByte });
  return csvToDataset(text, mapping, meta);
}

/** The options every read of a CSV file's records uses (the rows, and where a byte is). */
const CSV_PARSE = { bom: true, skip_empty_lines: true } as const;

/**
 * The data row (0-based; the header record is not one) of the CSV record holding the byte at `offset`,
 * as the parser splits records (a quoted field's newlines, LF, CR LF or CR line ends; probe33 B-F4: the
 * row was the physical LF line's), or null when the byte is in the header or the text before it is not
 * CSV. `bytes[0..offset)` must be UTF-8 (the bytes before the first invalid one are).
 */
export function csvRowAtByte(bytes: Uint8Array, offset: number): number | null {
  // "x" stands for the byte: it starts a record after a line end, or extends the one it is in
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, offset).toString("utf8") + "x";
  let records = 0;
  try {
    parse(text, {
      ...CSV_PARSE,
      relax_column_count: true,
      on_record: () => {
        records += 1;
        return null;
      },
    });
  } catch (e) {
    // the byte is inside a quoted field: its record never closed
    if ((e as { code?: string }).code !== "CSV_QUOTE_NOT_CLOSED") return null;
    records += 1;
  }
  return records >= 2 ? records - 2 : null;
}

/**
 * A CSV column's name: its header cell (or a mapping's name for it) trimmed, so `date, x, label` has the
 * columns `date`, `x` and `label` (probe27 B-F4).
 */
function columnName(text: string): string {
  return text.trim();
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
