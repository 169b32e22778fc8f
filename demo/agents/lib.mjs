// Shared plumbing for the demo's CLI agents (plain Node, no dependencies).
//
// Protocol (one process per run attempt): the runner writes the run's task
// batch as JSON on stdin and reads the answers as JSON from stdout.
//   stdin:  {"run_id"?: str, "attempt"?: int, "tasks": [{"ordinal": int, "prompt": str, ...}]}
//           (a bare array of tasks is accepted too)
//   stdout: {"answers": [{"ordinal": int, "answer_text": str}]}
// Diagnostics go to stderr. An agent only ever sees prompts, never labels.

/** Reads all of stdin as UTF-8 text. */
async function readStdin() {
  const chunks = [];
  for await (const chunk of process.stdin) chunks.push(chunk);
  return Buffer.concat(chunks).toString("utf8");
}

/** Resolves after `ms` milliseconds. */
export function sleep(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/**
 * Reads the observations the prompt states. The demo's prompt names each
 * field followed by its value (`date 2013-04-02`, `precipitation 1.3 mm`,
 * `temp_max 11.1`, `max temperature: 11.1`...); this reader accepts `name value`,
 * `name: value` and `name = value` with the field names of the CSV or their
 * spelled-out forms. Missing fields come back as `undefined`.
 * @param {string} prompt
 * @returns {{date?: string, month?: number, precipitation?: number, tempMax?: number, tempMin?: number, wind?: number}}
 */
export function readObservations(prompt) {
  const num = (re) => {
    const m = prompt.match(re);
    return m ? Number(m[1]) : undefined;
  };
  const date = prompt.match(/(\d{4}-\d{2}-\d{2})/)?.[1];
  const value = String.raw`\s*[:=]?\s*(-?\d+(?:\.\d+)?)`;
  return {
    date,
    month: date ? Number(date.slice(5, 7)) : undefined,
    precipitation: num(new RegExp(`precipitation${value}`, "i")),
    tempMax: num(new RegExp(`(?:temp_max|max(?:imum)? temp(?:erature)?)${value}`, "i")),
    tempMin: num(new RegExp(`(?:temp_min|min(?:imum)? temp(?:erature)?)${value}`, "i")),
    wind: num(new RegExp(`wind${value}`, "i")),
  };
}

/**
 * Runs an agent: reads the task batch, answers each task with `answer(prompt)`
 * after sleeping `msPerTask` (plus a little jitter, so attempts differ in wall
 * time), and prints the answers.
 * @param {{name: string, msPerTask: number, answer: (prompt: string) => string}} agent
 */
export async function runAgent({ name, msPerTask, answer }) {
  try {
    const input = JSON.parse(await readStdin());
    const tasks = Array.isArray(input) ? input : input.tasks;
    if (!Array.isArray(tasks)) throw new Error("stdin: expected {tasks: [...]} or an array of tasks");
    const scale = Number(process.env.DEMO_AGENT_SPEED ?? "1");
    const answers = [];
    for (const task of tasks) {
      if (typeof task?.prompt !== "string" || !Number.isInteger(task?.ordinal)) {
        throw new Error(`stdin: task ${answers.length} needs an integer ordinal and a string prompt`);
      }
      await sleep(Math.round(msPerTask * scale * (0.75 + Math.random() * 0.5)));
      answers.push({ ordinal: task.ordinal, answer_text: answer(task.prompt) });
    }
    process.stdout.write(JSON.stringify({ answers }) + "\n");
  } catch (err) {
    process.stderr.write(`${name}: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exitCode = 1;
  }
}
