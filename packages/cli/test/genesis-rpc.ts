/**
 * Test helper: a JSON-RPC endpoint that answers only the genesis block read (`eth_getBlockByNumber`
 * `0x0`) and drops every other request: a chain that answers `Platform.open`'s genesis read (store28
 * R-F1: an open on a chain that does not answer is refused `chain_error`) and is down for everything
 * after it, as the tests of an unreachable chain need. It runs in a child process, so it also answers
 * while a test waits in `spawnSync`.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { afterAll } from "vitest";

const SCRIPT = `
const http = require("node:http");
const h = (b) => "0x" + b.repeat(32);
const block = {
  number: "0x0", hash: h("ab"), parentHash: h("00"), nonce: "0x0000000000000042", sha3Uncles: h("00"),
  logsBloom: "0x" + "00".repeat(256), transactionsRoot: h("00"), stateRoot: h("00"), receiptsRoot: h("00"),
  miner: "0x" + "00".repeat(20), difficulty: "0x0", totalDifficulty: "0x0", extraData: "0x", size: "0x0",
  gasLimit: "0x1c9c380", gasUsed: "0x0", timestamp: "0x0", transactions: [], uncles: [], baseFeePerGas: "0x0",
};
const server = http.createServer((req, res) => {
  let body = "";
  req.on("data", (d) => (body += d));
  req.on("end", () => {
    let msg;
    try { msg = JSON.parse(body); } catch { msg = null; }
    if (msg && msg.method === "eth_getBlockByNumber" && msg.params && msg.params[0] === "0x0") {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ jsonrpc: "2.0", id: msg.id, result: block }));
    } else req.socket.destroy();
  });
});
server.listen(0, "127.0.0.1", () => process.stdout.write("port " + server.address().port + "\\n"));
`;

const children: ChildProcess[] = [];
afterAll(() => {
  for (const c of children.splice(0)) c.kill("SIGTERM");
});

/**
 * Starts the endpoint (stopped after the test file).
 * @returns its origin, `http://127.0.0.1:<port>` (any path answers alike)
 */
export async function startGenesisRpc(): Promise<string> {
  const child = spawn(process.execPath, ["-e", SCRIPT], { stdio: ["ignore", "pipe", "inherit"] });
  children.push(child);
  let out = "";
  child.stdout!.on("data", (d: Buffer) => (out += d.toString()));
  const end = Date.now() + 10_000;
  while (Date.now() < end) {
    const m = /port (\d+)\n/.exec(out);
    if (m) return `http://127.0.0.1:${m[1]}`;
    if (child.exitCode !== null) break;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`the genesis RPC did not start: ${out}`);
}
