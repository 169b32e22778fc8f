/**
 * One agent's full run of `bench:api` over HTTP: start, submit every answer in one call, finalize.
 * Plain JavaScript: the worker thread of `agents-worker.mjs` loads it without a TypeScript loader.
 */
import { readFileSync } from "node:fs";

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

/**
 * The CPU time (ns) the server's thread (the process's main thread, where the event loop runs) has
 * spent on a CPU so far, from Linux's `/proc/<pid>/task/<pid>/schedstat`; null elsewhere. Unlike the
 * process's CPU time it leaves out the agents' worker thread, and unlike wall time it leaves out the
 * time the thread waited for a CPU on a loaded machine.
 */
export function serverThreadCpuNs() {
  return serverThreadSched()?.onCpuNs ?? null;
}

/**
 * The server thread's scheduler figures (Linux): ns spent on a CPU, and ns spent waiting for one
 * (runnable, but the machine's CPUs were busy: the load of other work); null elsewhere.
 */
export function serverThreadSched() {
  try {
    const [onCpu, waiting] = readFileSync(`/proc/${process.pid}/task/${process.pid}/schedstat`, "utf8").split(
      " ",
    );
    return { onCpuNs: Number(onCpu), waitNs: Number(waiting) };
  } catch {
    return null;
  }
}

/**
 * One full run on `slug` at server `u` with `key`; returns the finalize latency in ms. With `phases`
 * (an object of arrays), the server thread's CPU µs of each request is pushed to `phases.start`,
 * `phases.submit`, `phases.finalize`: meaningful only when nothing else runs on the server meanwhile
 * (one agent).
 */
export async function fullRun(u, slug, key, phases) {
  let c0 = phases ? serverThreadCpuNs() : null;
  const mark = (name) => {
    if (c0 === null) return;
    const c1 = serverThreadCpuNs();
    phases[name].push((c1 - c0) / 1000);
    c0 = c1;
  };
  const s = await post(`${u}/api/v1/benchmarks/${slug}/runs`, key);
  const answers = s.tasks.map((t) => ({
    ordinal: t.ordinal,
    answer_text: `answer-${/#(\d+)/.exec(t.prompt)[1]}`,
  }));
  mark("start");
  await post(`${u}/api/v1/benchmarks/runs/${s.run.id}/submissions`, key, { answers });
  mark("submit");
  const t0 = performance.now();
  await post(`${u}/api/v1/benchmarks/runs/${s.run.id}/finalize`, key);
  const ms = performance.now() - t0;
  mark("finalize");
  return ms;
}

/**
 * `keys` play full runs until `until` (a Date.now() deadline); their finalize latencies in ms, and
 * with one key the server thread's CPU µs per phase (see {@link fullRun}).
 */
export async function playUntil(u, slug, keys, until) {
  const lat = [];
  const phases = keys.length === 1 ? { start: [], submit: [], finalize: [] } : undefined;
  await Promise.all(
    keys.map(async (key) => {
      do lat.push(await fullRun(u, slug, key, phases));
      while (Date.now() < until);
    }),
  );
  return { lat, phases };
}
