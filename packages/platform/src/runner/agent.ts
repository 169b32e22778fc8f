/**
 * Asking an agent for one answer (the CLI agent protocol `bench-bounty.agent.v1`, or an in-process function), with the task timeout, and checking what it answered.
 */
import {
  isEvidenceError,
  isJsonFloat,
  isJsonObject,
  parseJson,
  shortenPath,
  trimWhiteSpace,
  type JsonValue,
} from "@bench-bounty/evidence";
import { statSync } from "node:fs";
import { join, resolve } from "node:path";
import type { RunBackend } from "../backend.js";
import type { ServedTask } from "../runs.js";
import { MAX_AGENT_STDOUT_BYTES, runAgentProcess } from "../agent-process.js";
import { shellWord, terminalText } from "../terminal.js";
import { firstInvalidUtf8, jsonPathAtByte } from "../utf8.js";
import type { Checkpoint } from "./checkpoint.js";
import type { TaskOutcome } from "../runner.js";

/**
 * The answers of one batch by ordinal: the answer text, or the outcome of a task that has none.
 * `no_document` marks a batch whose process exited 0 with no JSON document on stdout (empty, or text
 * that is not JSON): a failed process, as a non-zero exit is, for the rule that an agent failing before
 * any answer costs no attempt (probe39 B-F3); the runner does not record the flag.
 */
export type BatchAnswers = Map<
  number,
  string | { status: TaskOutcome["status"]; reason: string; note?: string; no_document?: true }
>;

/** Protocol tag written to CLI agents. */
export const AGENT_PROTOCOL = "bench-bounty.agent.v1";

/** A task as an in-process agent receives it. */
export interface AgentTask extends ServedTask {
  benchmark: string;
  run_id: string;
  attempt: number;
}

/** An in-process agent: returns the answer text (anything else is an invalid answer). */
export type AgentFunction = (task: AgentTask, signal: AbortSignal) => unknown;

/** The agent to run. */
export type AgentSpec =
  | {
      kind: "command";
      command: string;
      cwd?: string;
      /** Extra variables, passed as given. */
      env?: Record<string, string>;
      /**
       * The names of `env` read from the runner's environment (`run --agent-env`): recorded in the
       * checkpoint (names only) so that a resume reads them again from its own environment.
       */
      env_names?: readonly string[];
    }
  | { kind: "function"; name: string; answer: AgentFunction };

/** ` ; its stderr ends:` and the indented tail, or nothing when the agent wrote no stderr. */
function stderrNote(tail: string): string {
  return tail ? `; its stderr ends:\n${tail.replace(/^/gm, "    ")}` : "";
}

function check(value: unknown): string | { status: "invalid"; reason: string } {
  if (typeof value !== "string")
    return {
      status: "invalid",
      reason: `answer is ${value === null ? "null" : isJsonFloat(value) || typeof value === "bigint" ? "number" : typeof value}, not a string`,
    };
  if (trimWhiteSpace(value) === "") return { status: "invalid", reason: "empty answer" };
  return value;
}

export async function askAgent(
  backend: RunBackend,
  cp: Checkpoint,
  agent: AgentSpec,
  batch: ServedTask[],
  signal: AbortSignal,
): Promise<BatchAnswers | "aborted"> {
  const out: BatchAnswers = new Map();
  if (agent.kind === "function") {
    const t = batch[0]!;
    const task: AgentTask = { ...t, benchmark: cp.benchmark, run_id: cp.run_id, attempt: cp.attempt };
    const ac = new AbortController();
    const stop = () => ac.abort();
    signal.addEventListener("abort", stop);
    let timer: NodeJS.Timeout | undefined;
    try {
      const result = await Promise.race([
        Promise.resolve().then(() => agent.answer(task, ac.signal)),
        new Promise<{ timeout: true }>((res) => {
          timer = setTimeout(() => res({ timeout: true }), cp.options.task_timeout_ms);
        }),
      ]);
      if (signal.aborted) return "aborted";
      if (
        typeof result === "object" &&
        result !== null &&
        (result as { timeout?: boolean }).timeout === true
      ) {
        ac.abort();
        out.set(t.ordinal, {
          status: "timeout",
          reason: `no answer within ${cp.options.task_timeout_ms} ms`,
        });
      } else out.set(t.ordinal, check(result));
    } catch (e) {
      if (signal.aborted) return "aborted";
      out.set(t.ordinal, { status: "error", reason: `agent threw: ${(e as Error).message}` });
    } finally {
      clearTimeout(timer);
      signal.removeEventListener("abort", stop);
    }
    return out;
  }
  const input = JSON.stringify({
    protocol: AGENT_PROTOCOL,
    benchmark: cp.benchmark,
    run_id: cp.run_id,
    attempt: cp.attempt,
    tasks: batch.map((t) => ({
      ordinal: t.ordinal,
      prompt: t.prompt,
      visibility: t.visibility,
      grader_type: t.grader_type,
    })),
  });
  const log = join(backend.checkpointDir, `${cp.run_id}.agent.log`);
  const hide = [...backend.privatePaths];
  const res = await runAgentProcess(
    { ...agent, hide },
    input,
    cp.options.task_timeout_ms * batch.length,
    signal,
    log,
  );
  if (res.kind === "aborted") return "aborted";
  const failAll = (status: TaskOutcome["status"], reason: string, note?: string, noDocument = false) => {
    for (const t of batch)
      out.set(t.ordinal, {
        status,
        reason,
        ...(note !== undefined ? { note } : {}),
        ...(noDocument ? { no_document: true as const } : {}),
      });
    return out;
  };
  const limitMs = cp.options.task_timeout_ms * batch.length;
  if (res.kind === "timeout")
    return failAll(
      "timeout",
      isJsonDocument(res.stdout)
        ? // it answered and lingered: the protocol's "exit 0" is what it missed (probe33 B-F10 addendum)
          `the agent printed a JSON document (${res.stdout.length} bytes) but did not exit within ${limitMs} ms (process killed): it must exit 0 once it has printed its answers${stderrNote(res.stderrTail)}`
        : `no answer within ${limitMs} ms (process killed; raise the per-task timeout if the agent is slow)${stderrNote(res.stderrTail)}`,
    );
  if (res.kind === "stdout_over_limit")
    return failAll(
      "invalid",
      `stdout passed ${MAX_AGENT_STDOUT_BYTES} bytes (MAX_AGENT_STDOUT_BYTES): the agent was stopped after ${res.stdoutBytes} bytes${stderrNote(res.stderrTail)}`,
    );
  if (res.code !== 0)
    return failAll(
      "error",
      `agent exited with ${res.signal ?? `status ${res.code}`}${stderrNote(res.stderrTail)}`,
      agent.cwd === undefined ? relativePathNote(agent.command) : undefined,
    );
  // strict: bytes that are not UTF-8 are no JSON text, never U+FFFD graded as the answer (probe28 B-F6)
  // and no JSON document either (RFC 8259 8.1): a failed process before any answer (probe39 V-F1: a Latin-1
  // error line burned the attempt)
  const bad = firstInvalidUtf8(res.stdout);
  if (bad >= 0)
    return failAll(
      "invalid",
      `stdout is not one JSON document: it is not UTF-8: invalid byte sequence at byte offset ${bad} (${jsonPathAtByte(res.stdout, bad)})${stderrNote(res.stderrTail)}`,
      undefined,
      true,
    );
  // the strict parser of SPEC 2, as a REST or MCP body is read (probe39 B-F2: `JSON.parse` took the last
  // of a key written twice, `{"answer_text":"first","answer_text":"second"}` graded "second")
  let doc: JsonValue;
  try {
    doc = parseJson(res.stdout);
  } catch (e) {
    if (!isEvidenceError(e)) throw e;
    if (e.code === "invalid_json")
      return failAll("invalid", noDocumentReason(res.stdout, e.message, res.stderrTail), undefined, true);
    // a refusal of SPEC 2's strictness: a JSON document all the same (a key written twice, a lone surrogate)
    // unless no JSON parser reads it (`NaN`, `Infinity`: probe39 V-F1), then no document, as above
    return failAll("invalid", strictRefusal(e.code, e.path), undefined, !isJsonDocument(res.stdout));
  }
  const list = Array.isArray(doc) ? doc : isJsonObject(doc) ? doc.answers : undefined;
  if (!Array.isArray(list))
    return failAll("invalid", 'stdout must be {"answers": [{"ordinal", "answer_text"}]}');
  const wanted = new Set(batch.map((t) => t.ordinal));
  const base = Array.isArray(doc) ? "$" : "$.answers";
  const firstAt = new Map<number, number>(); // ordinal -> index of its first answer in the list
  const unusable: string[] = []; // entries that answer no task of the batch, by JSON path (probe31 B-F8)
  for (const [i, a] of list.entries()) {
    const why = unusableEntry(a, wanted);
    if (why !== null) {
      unusable.push(`${base}[${i}]${why}`);
      continue;
    }
    const { ordinal, answer_text } = a as { ordinal: number; answer_text?: unknown };
    const first = firstAt.get(ordinal);
    if (first === undefined) {
      firstAt.set(ordinal, i);
      out.set(ordinal, check(answer_text));
    } else {
      // an ambiguous answer is not resolved by a guess (probe28 B-F7)
      out.set(ordinal, {
        status: "invalid",
        reason: `ordinal ${ordinal} is answered more than once (${base}[${first}] and ${base}[${i}])`,
      });
    }
  }
  const note =
    unusable.length === 0
      ? ""
      : ` (answering no task of the batch: ${unusable.slice(0, MAX_UNUSABLE_SHOWN).join("; ")}${unusable.length > MAX_UNUSABLE_SHOWN ? `; and ${unusable.length - MAX_UNUSABLE_SHOWN} more` : ""})`;
  for (const t of batch)
    if (!out.has(t.ordinal))
      out.set(t.ordinal, { status: "invalid", reason: `no answer for this ordinal${note}` });
  return out;
}

/**
 * An agent command with each word that names a file relative to `from` made absolute (probe31 B-F9:
 * the agent runs in a temporary working directory of its own, so `./agent.sh` or `python3 agent.py`
 * names no file there). Words are split at blanks; a word starting with `/`, `~`, `-` or `$`, or
 * holding a quote, `=`, a backslash or a backquote, is left alone.
 * @param from the directory the words are resolved in (default: the runner's working directory)
 * @returns the command with those words absolute (each a shell word), or `undefined` when no word of
 *   the command is such a file
 */
export function absoluteAgentCommand(command: string, from: string = process.cwd()): string | undefined {
  let found = false;
  const words = command.split(/([ \t\n]+)/).map((w) => {
    if (w === "" || /^[\s/~\-$]/.test(w) || /['"=\\`]/.test(w) || w === "." || w === "..") return w;
    const abs = resolve(from, w);
    try {
      if (!statSync(abs).isFile()) return w;
    } catch {
      return w; // not a file of the runner's directory
    }
    found = true;
    return shellWord(abs);
  });
  return found ? words.join("") : undefined;
}

/**
 * The reason of a batch whose stdout is JSON text the strict parser (SPEC 2) refuses: a key written
 * twice in one object (neither value is taken), a lone surrogate, NaN, an integer too large, nesting too
 * deep; named by the parser's code and the JSON path (bounded, escaped: the agent's key names are in it).
 */
function strictRefusal(code: string, path: string): string {
  const what = code === "duplicate_key" ? "a key written twice in one object (neither value is taken)" : code;
  return `stdout is not strict JSON (SPEC 2): ${what} at ${terminalText(shortenPath(path))}`;
}

/**
 * The reason of a batch whose agent exited 0 with stdout (UTF-8) that is no JSON document: empty, or
 * what the parser says (`unexpected character "I" at offset 0, expected a value`) and how stdout
 * starts (its first 40 characters as a JSON string, escaped, `...` when there are more), then the tail
 * of its stderr.
 */
function noDocumentReason(stdout: Uint8Array, parserSays: string, stderrTail: string): string {
  const text = Buffer.from(stdout).toString("utf8");
  const what =
    trimWhiteSpace(text) === ""
      ? `it is empty${text === "" ? "" : " (white space only)"}: the agent exited 0 and printed no answer`
      : `${terminalText(parserSays)}; stdout starts ${terminalText(JSON.stringify(text.slice(0, 40)))}${text.length > 40 ? "..." : ""}`;
  return `stdout is not one JSON document: ${what}${stderrNote(stderrTail)}`;
}

/** Whether `bytes` are one whole JSON document (UTF-8): what an agent prints before it exits. */
function isJsonDocument(bytes: Uint8Array): boolean {
  if (bytes.length === 0 || firstInvalidUtf8(bytes) >= 0) return false;
  try {
    JSON.parse(Buffer.from(bytes).toString("utf8"));
    return true;
  } catch {
    return false;
  }
}

/**
 * The note for a failed agent whose command names a file relative to the runner's working directory
 * ({@link absoluteAgentCommand}): the command with those words made absolute, to pass as `--agent`,
 * ending the note (printed on a line of its own: `TaskOutcome.note`).
 * @returns the note, or `undefined` when no word of the command is such a file
 */
export function relativePathNote(command: string, from: string = process.cwd()): string | undefined {
  const abs = absoluteAgentCommand(command, from);
  if (abs === undefined) return undefined;
  return `the agent runs in a temporary working directory of its own, not in yours (${terminalText(from)}), so a relative path in its command names no file there; give it absolute paths: --agent ${terminalText(shellWord(abs))}`;
}

/** Most entries of an answer list that answer no task a reason names (then their count). */
const MAX_UNUSABLE_SHOWN = 3;

/**
 * Why an entry of an agent's answer list answers no task of its batch (`wanted`: the batch's ordinals),
 * as the rest of its JSON path and the reason (`.ordinal is a string ("0"), not a number`), or null
 * when it is `{"ordinal": <one of wanted>, ...}`. The agent's values are shown bounded and escaped
 * (they reach the operator's terminal).
 */
function unusableEntry(entry: unknown, wanted: ReadonlySet<number>): string | null {
  if (!isJsonObject(entry)) return ` is ${kindOf(entry)}, not {"ordinal", "answer_text"}`;
  const { ordinal } = entry as { ordinal?: unknown };
  if (ordinal === undefined) return ".ordinal is missing";
  // an ordinal is written as an integer: `0.0` or `0e0` is no ordinal, never read as 0 (probe39 B-F2)
  if (isJsonFloat(ordinal))
    return `.ordinal ${shown(ordinal)} is not an integer (an ordinal has no fraction or exponent)`;
  if (typeof ordinal !== "number" && typeof ordinal !== "bigint")
    return `.ordinal is ${kindOf(ordinal)}, not a number`;
  if (typeof ordinal === "bigint" || !wanted.has(ordinal)) {
    const list = [...wanted].sort((x, y) => x - y);
    const of = list.length <= 5 ? list.join(", ") : `${list.slice(0, 5).join(", ")}, ...`;
    return `.ordinal ${shown(ordinal)} is not an ordinal of this batch (${of})`;
  }
  return null;
}

/** What a JSON value is, for a message: `null`, `a string ("0")`, `a list`, `an object`. */
function kindOf(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "a list";
  if (isJsonFloat(value) || typeof value === "bigint") return `a number (${shown(value)})`;
  if (typeof value === "object") return "an object";
  return `a ${typeof value} (${shown(value)})`;
}

/** A JSON value of an agent's output as a message shows it: its JSON text, at most 40 characters, escaped. */
function shown(value: unknown): string {
  // a number as the agent wrote it: a float's lexeme (`0.0`), a big integer's digits
  const text = isJsonFloat(value)
    ? value.lexeme
    : typeof value === "bigint"
      ? value.toString()
      : (JSON.stringify(value) ?? String(value));
  return terminalText(text.length > 40 ? `${text.slice(0, 37)}...` : text);
}
