/**
 * The CLI agents read the prompts the platform renders from the demo's template (and nothing else), and
 * speak the runner's protocol: one JSON document in, `{"answers": [...]}` out.
 */
import { AGENT_PROTOCOL, parseTemplate, renderTemplate } from "@bench-bounty/platform";
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { PROMPT_TEMPLATE } from "../src/dataset.js";
import { AGENT_NAMES } from "../src/options.mjs";
import { AGENTS_DIR } from "../src/run.js";

/** Four real rows of seattle-weather.csv (label in the comment), as the CSV loader maps them (cells as text). */
const DAYS = [
  { date: "2012-01-17", precipitation: "8.1", temp_max: "3.3", temp_min: "0.0", wind: "5.6" }, // snow
  { date: "2012-02-22", precipitation: "8.6", temp_max: "10.0", temp_min: "2.8", wind: "5.9" }, // rain
  { date: "2014-07-04", precipitation: "0.0", temp_max: "23.9", temp_min: "13.9", wind: "3.6" }, // sun
  { date: "2013-11-20", precipitation: "0.0", temp_max: "7.8", temp_min: "1.7", wind: "4.3" }, // sun
];

function prompt(day: (typeof DAYS)[number]): string {
  const text = renderTemplate(parseTemplate(PROMPT_TEMPLATE), { payload: day });
  if (typeof text !== "string") throw new Error(`template misses ${text.missing}`);
  return text;
}

function ask(agent: string, input: unknown): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [join(AGENTS_DIR, `${agent}.mjs`)], {
    input: JSON.stringify(input),
    encoding: "utf8",
    env: { ...process.env, DEMO_AGENT_SPEED: "0" },
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

function answers(agent: string): string[] {
  const tasks = DAYS.map((d, i) => ({
    ordinal: i,
    prompt: prompt(d),
    visibility: "private",
    grader_type: "exact",
  }));
  const r = ask(agent, { protocol: AGENT_PROTOCOL, benchmark: "b", run_id: "r", attempt: 1, tasks });
  expect(r.status).toBe(0);
  const doc = JSON.parse(r.stdout) as { answers: { ordinal: number; answer_text: string }[] };
  expect(doc.answers.map((a) => a.ordinal)).toEqual([0, 1, 2, 3]);
  return doc.answers.map((a) => a.answer_text);
}

describe("demo agents", () => {
  it("the rendered prompt states the observations and not the label", () => {
    const p = prompt(DAYS[0]!);
    expect(p).toContain("2012-01-17");
    expect(p).toContain("precipitation 8.1 mm");
    expect(p).toContain("max temperature 3.3 °C");
    expect(p).toContain("min temperature 0.0 °C");
    expect(p).toContain("wind 5.6 m/s");
    // only payload fields are placeholders: the label never reaches a prompt
    const placeholders = PROMPT_TEMPLATE.match(/\{[^}]*\}/g) ?? [];
    expect(placeholders.length).toBe(5);
    for (const ph of placeholders)
      expect(ph).toMatch(/^\{payload\.(date|precipitation|temp_max|temp_min|wind)\}$/);
  });

  it("each agent answers from the prompt by its own rule", () => {
    expect(answers("always-sun")).toEqual(["sun", "sun", "sun", "sun"]);
    expect(answers("precipitation-rule")).toEqual(["rain", "rain", "sun", "sun"]);
    expect(answers("precip-temp-snow")).toEqual(["snow", "rain", "sun", "sun"]);
    expect(answers("seasonal-rule")).toEqual(["rain", "rain", "sun", "rain"]);
    expect(answers("author-baseline")).toEqual(["snow", "rain", "sun", "sun"]);
  });

  it("every agent of the CLI list ships as a script", () => {
    for (const name of AGENT_NAMES) expect(ask(name, { tasks: [] }).stdout.trim()).toBe('{"answers":[]}');
  });

  it("a malformed batch is refused on stderr with a non-zero exit, not answered", () => {
    const r = ask("precipitation-rule", { tasks: [{ ordinal: "x", prompt: 3 }] });
    expect(r.status).toBe(1);
    expect(r.stdout).toBe("");
    expect(r.stderr).toContain("task 0 needs an integer ordinal and a string prompt");
    const bad = ask("always-sun", "not a batch");
    expect(bad.status).toBe(1);
    expect(bad.stderr).toContain("expected {tasks: [...]}");
  });
});
