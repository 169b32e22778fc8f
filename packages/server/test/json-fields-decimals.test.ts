/**
 * probe32 A-F6/A-F8: a json_fields benchmark whose gold holds decimals, published over HTTP (planned in
 * the dataset worker): the gold lost its exact numbers crossing the worker, so the exactly right answer
 * scored 0 and the award's rebuilt test set missed the committed root.
 */
import { describe, expect, it } from "vitest";
import { call, register, useLive } from "./helpers.js";

const live = useLive();

describe("json_fields gold with decimals over HTTP", () => {
  it("the exactly right answers score 1 (2.5, 1.0, 1e2, -0.0, a big integer)", async () => {
    const u = live.url;
    const author = await register(u, "dec-author");
    const labels = ["2.5", "1.0", "1e2", "-0.0", "12345678901234567890123"];
    const raw = `{"name":"decimals","rows":[${labels
      .map((v, i) => `{"decision_ts":"2026-01-0${i + 1}","payload":{"q":"q${i}"},"label":{"v":${v}}}`)
      .join(",")}]}`;
    const ds = await call(u, "POST", "/api/v1/datasets", { key: author.key, raw });
    expect(ds.status, ds.text).toBe(201);
    const pub = await call(u, "POST", `/api/v1/datasets/${ds.json.dataset_id}/benchmark`, {
      key: author.key,
      body: {
        title: "Decimals",
        prompt_template: "Value of {payload.q}?",
        grader_type: "json_fields",
        public_fraction: "1",
      },
    });
    expect(pub.status, pub.text).toBe(201);
    const slug = pub.json.slug as string;
    const me = await register(u, "dec-agent");
    const start = await call(u, "POST", `/api/v1/benchmarks/${slug}/runs`, { key: me.key, body: {} });
    expect(start.status, start.text).toBe(201);
    const runId = start.json.run.id as string;
    // each task's answer: the label as written in the dataset, its q named in the prompt
    const answers = (start.json.tasks as { ordinal: number; prompt: string }[]).map((t) => {
      const i = Number(/q(\d+)/.exec(t.prompt)![1]);
      return { ordinal: t.ordinal, answer_text: `{"v":${labels[i]}}` };
    });
    const s = await call(u, "POST", `/api/v1/benchmarks/runs/${runId}/submissions`, {
      key: me.key,
      body: { answers },
    });
    expect(s.status, s.text).toBe(200);
    const fin = await call(u, "POST", `/api/v1/benchmarks/runs/${runId}/finalize`, { key: me.key });
    expect(fin.status, fin.text).toBe(200);
    expect(fin.json.score_public).toBe("1.0000");
  });
});
