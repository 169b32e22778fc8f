/** Test helper: a spawned `bench-bounty serve` process, waited for until it prints its banner. */
import type { ChildProcess } from "node:child_process";

/**
 * Collects `child`'s stdout and stderr (reported through `onOutput` as they grow) and resolves the URL
 * of its `listening on` line once the banner is whole (its `MCP:` line), within 30 s.
 * @throws Error with everything printed when the process exits or the 30 s pass first
 */
export async function serveUrl(
  child: ChildProcess,
  onOutput: (out: string, err: string) => void = () => {},
): Promise<string> {
  let out = "";
  let err = "";
  child.stdout!.on("data", (d: Buffer) => onOutput((out += d.toString()), err));
  child.stderr!.on("data", (d: Buffer) => onOutput(out, (err += d.toString())));
  const end = Date.now() + 30_000;
  while (Date.now() < end) {
    const m = /listening on (\S+)/.exec(out);
    if (m && /MCP: /.test(out)) return m[1]!;
    if (child.exitCode !== null) break;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`serve did not start: ${out}\n${err}`);
}

/** POSTs `body` as JSON to a serve under test (with `key` as `x-api-key`); the status and the parsed answer. */
export async function post(base: string, path: string, body: unknown, key?: string) {
  const r = await fetch(`${base}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", ...(key ? { "x-api-key": key } : {}) },
    body: JSON.stringify(body),
  });
  return { status: r.status, json: (await r.json()) as Record<string, any> };
}
