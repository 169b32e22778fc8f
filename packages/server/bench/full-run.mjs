/**
 * One agent's full run of `bench:api` over HTTP: start, submit every answer in one call, finalize.
 * Plain JavaScript: the worker thread of `agents-worker.mjs` loads it without a TypeScript loader.
 */

/** POSTs JSON with an optional key; throws on a refusal, naming the URL. */
export async function post(url, key, body) {
  const res = await fetch(url, {
    method: "POST",
    headers: {
      ...(key ? { "x-api-key": key } : {}),
      ...(body !== undefined ? { "content-type": "application/json" } : {}),
    },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  const json = await res.json();
  if (!res.ok) throw new Error(`${url}: ${res.status} ${JSON.stringify(json)}`);
  return json;
}

/** One full run on `slug` at server `u` with `key`; returns the finalize latency in ms. */
export async function fullRun(u, slug, key) {
  const s = await post(`${u}/api/v1/benchmarks/${slug}/runs`, key);
  const answers = s.tasks.map((t) => ({
    ordinal: t.ordinal,
    answer_text: `answer-${/#(\d+)/.exec(t.prompt)[1]}`,
  }));
  await post(`${u}/api/v1/benchmarks/runs/${s.run.id}/submissions`, key, { answers });
  const t0 = performance.now();
  await post(`${u}/api/v1/benchmarks/runs/${s.run.id}/finalize`, key);
  return performance.now() - t0;
}

/** `keys` play full runs until `until` (a Date.now() deadline); their finalize latencies in ms. */
export async function playUntil(u, slug, keys, until) {
  const lat = [];
  await Promise.all(
    keys.map(async (key) => {
      do lat.push(await fullRun(u, slug, key));
      while (Date.now() < until);
    }),
  );
  return lat;
}
