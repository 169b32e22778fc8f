/**
 * Prompt templates (seed "Publish a Benchmark from Your Data", step 2): a task prompt is rendered from
 * `prompt_template` against the stored row body `{decision_ts, payload, label, knowable_at?}`.
 *
 * Syntax: `{payload.symbol}` inserts a value found by a plain dotted path; `{{` and `}}` are literal
 * braces. Everything else is refused with `invalid_template`: index access (`{payload[0]}`), format
 * specs (`{payload.price:.2f}`), conversions (`{payload!r}`), attribute access (`{payload.__class__}`,
 * any segment starting with `_`, calls), positional fields (`{}`, `{0}`), unbalanced braces.
 *
 * Rendering: strings as they are; integers in decimal; floats as their canonical (Python `repr`)
 * rendering; `true`/`false`/`null`; objects and arrays as canonical JSON.
 */
import { canonicalJsonString } from "@bench-bounty/evidence";
import { PlatformError } from "./errors.js";
import { getPath, isJsonFloat, type JsonValue } from "./json.js";

/** A parsed template: literal text and placeholders in order. */
export type TemplatePart = { text: string } | { path: string };

const ROOTS = new Set(["decision_ts", "payload", "label", "knowable_at"]);
const SEGMENT_RE = /^[A-Za-z0-9][A-Za-z0-9_-]*$/;

function refuse(message: string, placeholder: string | null, reason: string): never {
  throw new PlatformError("invalid_template", `prompt_template: ${message}`, {
    field: "prompt_template",
    placeholder,
    reason,
  });
}

/**
 * Parses and checks a prompt template.
 * @throws PlatformError `invalid_template` with `details.reason` one of `unbalanced_brace`,
 *   `positional_field`, `index_access`, `format_spec`, `conversion`, `attribute_access`, `unknown_root`,
 *   `bad_placeholder`, `no_placeholder` (a placeholder showing the gold is refused by
 *   {@link refuseGoldPlaceholders}, which needs the gold field)
 */
export function parseTemplate(template: string): TemplatePart[] {
  if (typeof template !== "string" || template.trim() === "")
    refuse("must be a non-empty string", null, "empty");
  const parts: TemplatePart[] = [];
  let text = "";
  let i = 0;
  while (i < template.length) {
    const c = template[i]!;
    if (c === "{" && template[i + 1] === "{") {
      text += "{";
      i += 2;
    } else if (c === "}" && template[i + 1] === "}") {
      text += "}";
      i += 2;
    } else if (c === "}") {
      refuse(`a single "}" at offset ${i} (write "}}" for a literal brace)`, null, "unbalanced_brace");
    } else if (c === "{") {
      const end = template.indexOf("}", i + 1);
      if (end < 0)
        refuse(
          `"{" at offset ${i} is never closed (write "{{" for a literal brace)`,
          null,
          "unbalanced_brace",
        );
      const inner = template.slice(i + 1, end);
      if (inner.includes("{")) refuse(`nested "{" in placeholder at offset ${i}`, inner, "unbalanced_brace");
      checkPlaceholder(inner);
      if (text !== "") parts.push({ text });
      text = "";
      parts.push({ path: inner });
      i = end + 1;
    } else {
      text += c;
      i++;
    }
  }
  if (text !== "") parts.push({ text });
  if (!parts.some((p) => "path" in p))
    refuse("has no placeholder: every task would show the same prompt", null, "no_placeholder");
  return parts;
}

function checkPlaceholder(inner: string): void {
  const ph = `{${inner}}`;
  const trimmed = inner.trim();
  if (trimmed === "" || /^[0-9]+$/.test(trimmed))
    refuse(
      `${ph}: positional fields are not allowed, name a dotted path like {payload.symbol}`,
      inner,
      "positional_field",
    );
  if (inner.includes("[") || inner.includes("]"))
    refuse(`${ph}: index access is not allowed, use a plain dotted path`, inner, "index_access");
  if (inner.includes("!")) refuse(`${ph}: conversions (!r, !s, !a) are not allowed`, inner, "conversion");
  if (inner.includes(":"))
    refuse(`${ph}: format specs are not allowed, the value is inserted as stored`, inner, "format_spec");
  if (inner.includes("(") || inner.includes(")"))
    refuse(`${ph}: calls are not allowed`, inner, "attribute_access");
  const segs = inner.split(".");
  if (segs.some((s) => s.startsWith("_")))
    refuse(`${ph}: attribute access (a segment starting with "_") is not allowed`, inner, "attribute_access");
  if (segs.some((s) => !SEGMENT_RE.test(s)))
    refuse(
      `${ph}: not a plain dotted path (letters, digits, "_" and "-" per segment)`,
      inner,
      "bad_placeholder",
    );
  if (!ROOTS.has(segs[0]!))
    refuse(`${ph}: a path must start with payload, label, decision_ts or knowable_at`, inner, "unknown_root");
}

/**
 * Refuses a template whose placeholder would put the gold into the prompt: a placeholder equal to a
 * gold path (`{label}` with the default `gold_field`), inside it (`{label.tip5m_bps}` when the gold is
 * `label`) or containing it (`{label}` when the gold is `label.tip5m_bps`). The seed's privacy rule:
 * "Gold answers never appear in any response".
 * @param goldPaths the option naming each gold path (`gold_field`, `alternatives_field`) and its dotted path
 * @throws PlatformError `invalid_template` with `details.reason` `reveals_gold`, naming the placeholder
 *   and the gold option
 */
export function refuseGoldPlaceholders(
  parts: TemplatePart[],
  goldPaths: { option: string; path: string }[],
): void {
  for (const p of parts) {
    if (!("path" in p)) continue;
    for (const g of goldPaths) {
      if (p.path === g.path || p.path.startsWith(g.path + ".") || g.path.startsWith(p.path + ".")) {
        throw new PlatformError(
          "invalid_template",
          `prompt_template: {${p.path}} would show the gold (${g.option} ${g.path}) in every prompt; ` +
            "remove the placeholder or choose another gold field",
          { field: "prompt_template", placeholder: p.path, reason: "reveals_gold", [g.option]: g.path },
        );
      }
    }
  }
}

/** Renders one inserted value (see the module doc). */
export function renderValue(v: JsonValue): string {
  if (typeof v === "string") return v;
  if (typeof v === "number" || typeof v === "bigint") return String(v);
  if (isJsonFloat(v)) return v.toString();
  if (v === null || typeof v === "boolean") return String(v);
  return canonicalJsonString(v);
}

/**
 * Renders a parsed template against a row body.
 * @returns the prompt, or `{missing: path}` naming the first placeholder absent from the row
 */
export function renderTemplate(parts: TemplatePart[], row: JsonValue): string | { missing: string } {
  let out = "";
  for (const p of parts) {
    if ("text" in p) out += p.text;
    else {
      const got = getPath(row, p.path);
      if (!got.found) return { missing: p.path };
      out += renderValue(got.value);
    }
  }
  return out;
}

/** The size of a rendered prompt: UTF-16 code units (`chars`, a JS string's length) and UTF-8 bytes. */
export interface RenderedSize {
  chars: number;
  bytes: number;
}

/**
 * Sizes the prompts a parsed template renders, without rendering them (probeD3 F6: a template repeats
 * a row's fields, so rendering first let a 14 KB template over a 0.9 MB dataset build 1.2 G
 * characters before any limit was checked). Each distinct placeholder is rendered and measured once
 * per row and the literal text once per template: the cost is that of the template and the row, not
 * of the prompt.
 * @returns a function of a row body: its prompt's size, or `{missing: path}` naming the first
 *   placeholder absent from the row (as {@link renderTemplate})
 */
export function templateSizer(parts: TemplatePart[]): (row: JsonValue) => RenderedSize | { missing: string } {
  const sizeOf = (s: string): RenderedSize => ({ chars: s.length, bytes: Buffer.byteLength(s, "utf8") });
  const text = parts.flatMap((p) => ("text" in p ? [sizeOf(p.text)] : []));
  const fixed = text.reduce((n, s) => ({ chars: n.chars + s.chars, bytes: n.bytes + s.bytes }), {
    chars: 0,
    bytes: 0,
  });
  const paths = parts.flatMap((p) => ("path" in p ? [p.path] : []));
  return (row) => {
    const values = new Map<string, RenderedSize>();
    let { chars, bytes } = fixed;
    for (const path of paths) {
      let s = values.get(path);
      if (s === undefined) {
        const got = getPath(row, path);
        if (!got.found) return { missing: path };
        s = sizeOf(renderValue(got.value));
        values.set(path, s);
      }
      chars += s.chars;
      bytes += s.bytes;
    }
    return { chars, bytes };
  };
}
