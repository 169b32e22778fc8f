/**
 * probe40 C-F1: an RPC whose view answers are not their ABI value (an address word with its upper 12 bytes
 * set, the probe39 V-F2 shape). `bounty:status` and `bounty:reclaim` ended in ethers' "deferred error during
 * ABI decoding" under "An unexpected error occurred" and a stack trace; `bounty:credits` and `bounty:claim`
 * read the address of the word's low 20 bytes (viem) and went on. The tasks' transport refuses such an
 * answer (`protocolViewAnswerProblem`, as the verifier's and the platform's): one line, `Error: The
 * localhost RPC endpoint failed: <view>(<args>): ... (<member>: ...)`, exit 1, nothing sent, for every
 * task that reads the views (a direct call or one of a batched call).
 */
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { expect } from "chai";
import type { DevChain } from "@bench-bounty/devchain";
import {
  blockNumber,
  closedSmallPackBounty,
  expectOk,
  expectRefusal,
  hardhat,
  localDeploymentFile,
  startChain,
  tempDir,
  type Run,
} from "./helpers";

/**
 * A JSON-RPC proxy in front of `target` that passes everything through, except that in every `eth_call`
 * answer each word holding `address` gets its upper 12 bytes set to `ff…ff` (inside a batched call's
 * answer too).
 */
async function startLyingProxy(
  target: string,
  address: string,
): Promise<{ url: string; close(): Promise<void> }> {
  const honest = `${"0".repeat(24)}${address.slice(2).toLowerCase()}`;
  const lie = `${"f".repeat(24)}${address.slice(2).toLowerCase()}`;
  type Call = { id: unknown; method: string };
  const server = http.createServer((req, res) => {
    let body = "";
    req.setEncoding("utf8");
    req.on("data", (d: string) => (body += d));
    req.on("end", () => {
      const asked = JSON.parse(body) as Call | Call[];
      const calls = Array.isArray(asked) ? asked : [asked];
      void fetch(target, { method: "POST", headers: { "content-type": "application/json" }, body })
        .then((r) => r.json())
        .then((answer: unknown) => {
          const edit = (m: { id: unknown; result?: unknown }) =>
            calls.find((c) => c.id === m.id)?.method === "eth_call" && typeof m.result === "string"
              ? { ...m, result: m.result.toLowerCase().split(honest).join(lie) }
              : m;
          res.setHeader("content-type", "application/json");
          res.end(JSON.stringify(Array.isArray(answer) ? answer.map(edit) : edit(answer as never)));
        })
        .catch(() => void res.writeHead(502).end());
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

describe("a view answer that is not its ABI value (probe40 C-F1)", function () {
  let chain: DevChain;
  let dir: string;
  let book: string;
  let author: string, awarder: string, w1: string, w2: string, w3: string;
  let id: bigint;
  let proxy: { url: string; close(): Promise<void> };
  let awardArgs: string[];
  const digest = `0x${"c1".repeat(32)}`;

  /** `hardhat <args> --network localhost` against `rpcUrl` (the devchain, or the proxy in front of it). */
  const runVia = (rpcUrl: string, args: string[]): Promise<Run> =>
    hardhat([...args, "--network", "localhost"], {
      LOCAL_RPC_URL: rpcUrl,
      BENCH_BOUNTY_LOCAL_DEPLOYMENT: book,
    });
  /** `args` through the lying proxy: refused in one line matching `said`, no stack trace, nothing sent. */
  async function refusedVia(args: string[], said: RegExp): Promise<void> {
    const before = await blockNumber(chain);
    const r = await runVia(proxy.url, args);
    expect(r.stderr + r.stdout, "no stack trace").not.to.match(/^\s+at /m);
    expect(r.stderr + r.stdout).not.to.match(/An unexpected error occurred|deferred error/);
    expectRefusal(r, said);
    expect(r.stderr.trim().split("\n"), "one line").to.have.length(1);
    expect(await blockNumber(chain), "nothing sent").to.equal(before);
  }
  /** The line of an answer whose word holding the author has its upper bytes set. */
  const authorLine = (view: string, member: string) =>
    new RegExp(
      `^Error: The localhost RPC endpoint failed: ${view.replace(/[()]/g, "\\$&")}: the answer is not the view's ABI value \\(\\$\\.${member}: 0xf{24}${author.slice(2).toLowerCase()} is not an address \\(it does not fit 160 bits\\)\\)\\. Check the endpoint and run again\\.$`,
      "m",
    );

  before(async function () {
    chain = await startChain();
    dir = tempDir();
    book = localDeploymentFile(dir, chain);
    [awarder, author, w1, w2, w3] = chain.accounts.slice(1, 6).map((a) => a.address);
    ({ id, awardArgs } = await closedSmallPackBounty(
      chain,
      dir,
      (args) => runVia(chain.rpcUrl, args),
      { author, awarder, winners: [w1, w2, w3] },
      "c0ffee40",
    ));
    expectOk(await runVia(chain.rpcUrl, awardArgs));
    expectOk(
      await runVia(chain.rpcUrl, ["anchor", "--from", author, "--digest", digest, "--kind", "receipt"]),
    );
    proxy = await startLyingProxy(chain.rpcUrl, author);
  });
  after(async function () {
    await proxy?.close();
    await chain?.stop();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  it("bounty:status and bounty:reclaim: one line naming getBounty and $.bounty.author, no stack trace", async function () {
    await refusedVia(
      ["bounty:status", "--id", String(id), "--author", author],
      authorLine(`getBounty(${id})`, "bounty.author"),
    );
    await refusedVia(
      ["bounty:reclaim", "--id", String(id), "--from", author],
      authorLine(`getBounty(${id})`, "bounty.author"),
    );
  });

  it("bounty:award, bounty:claim and bounty:credits (a batched read): the same line, nothing sent", async function () {
    await refusedVia(awardArgs, authorLine(`getBounty(${id})`, "bounty.author"));
    await refusedVia(
      ["bounty:claim", "--from", w1, "--id", String(id)],
      authorLine(`getBounty(${id})`, "bounty.author"),
    );
    await refusedVia(
      ["bounty:credits", "--account", w1],
      authorLine(`getBounty(${id}) (call 1 of a batched call)`, "bounty.author"),
    );
  });

  it("anchor:check: one line naming anchorOf and $.anchorer", async function () {
    await refusedVia(["anchor:check", "--digest", digest], authorLine(`anchorOf(${digest})`, "anchorer"));
  });

  it("an honest RPC's answers pass: the same tasks read them", async function () {
    expect(expectOk(await runVia(chain.rpcUrl, ["bounty:credits", "--account", w1]))).to.include(
      `bounty ${id}`,
    );
    expect(expectOk(await runVia(chain.rpcUrl, ["anchor:check", "--digest", digest]))).to.include(
      "Anchor check passed.",
    );
  });
});
