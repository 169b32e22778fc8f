// Probe: the verifier's size and time limits on what servers answer (issue 13 item 6), new variants:
// an endless chunked RPC answer, a gzip bomb (Content-Encoding: gzip), a slow drip (1 byte / 100 ms),
// and the same for the indexer and a pack URL. Prints each verify's exit code, time and peak RSS.
// Usage: [MODES=endless,gzipbomb,drip] [CAP_S=150] node probe/verifier-streams.mjs PACK.json
// (each verify is killed after CAP_S seconds: exit 137 means it was still running)
import { spawn } from "node:child_process";
import { createServer } from "node:http";
import { gzipSync } from "node:zlib";
import { readFileSync } from "node:fs";
const packFile = process.argv[2];
const root = new URL("..", import.meta.url).pathname;
const bomb = gzipSync(Buffer.alloc(512 * 1024 * 1024, 0x20), { level: 9 }); // 512 MiB of spaces, ~0.5 MB gzipped
const modes = {
  endless: (res) => { res.writeHead(200, { "content-type": "application/json" }); const c = Buffer.alloc(1 << 20, 0x20); const w = () => { while (res.write(c)); }; res.on("drain", w); w(); },
  gzipbomb: (res) => { res.writeHead(200, { "content-type": "application/json", "content-encoding": "gzip", "content-length": bomb.length }); res.end(bomb); },
  drip: (res) => { res.writeHead(200, { "content-type": "application/json" }); const t = setInterval(() => res.write(" "), 100); res.on("close", () => clearInterval(t)); },
};
let mode = "endless";
const server = createServer((req, res) => { req.resume(); modes[mode](res); }).listen(0, "127.0.0.1");
await new Promise((r) => server.on("listening", r));
const url = `http://127.0.0.1:${server.address().port}`;
function run(args) {
  return new Promise((resolve) => {
    const t0 = Date.now();
    const p = spawn("/usr/bin/time", ["-f", "%M", "timeout", "-s", "KILL", String(Number(process.env.CAP_S ?? 150)), "node", `${root}packages/verifier/dist/bin.js`, ...args], { stdio: ["ignore", "pipe", "pipe"] });
    let err = ""; p.stderr.on("data", (d) => (err += d)); p.stdout.resume();
    const kill = setTimeout(() => p.kill("SIGKILL"), 600_000);
    p.on("close", (code) => { clearTimeout(kill); const lines = err.trim().split("\n"); resolve(`exit ${code} in ${Date.now() - t0} ms, peak RSS ${lines.at(-1)} KB: ${lines.slice(-3, -1).join(" | ").slice(0, 220)}`); });
  });
}
for (const m of (process.env.MODES ?? Object.keys(modes).join(",")).split(",")) {
  mode = m;
  console.log(`${m} RPC:     ${await run(["verify", packFile, "--rpc", url, "--policy", "onchain"])}`);
  console.log(`${m} indexer: ${await run(["verify", packFile, "--indexer", url, "--policy", "full", "--rpc", "http://127.0.0.1:46861"])}`);
  console.log(`${m} pack URL: ${await run(["verify", `${url}/pack.json`])}`);
}
server.close();
