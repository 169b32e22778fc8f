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
 * A JSON-RPC proxy in front of `target` that passes everything through, except that every `eth_call`
 * answer is edited by `edit(callData, answer)` (the call's input; the answer as the chain gave it).
 */
async function startLyingProxy(
  target: string,
  edit: (callData: string, result: string) => string,
): Promise<{ url: string; close(): Promise<void> }> {
  type Call = { id: unknown; method: string; params?: { data?: string; input?: string }[] };
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
          const lied = (m: { id: unknown; result?: unknown }) => {
            const call = calls.find((c) => c.id === m.id);
            if (call?.method !== "eth_call" || typeof m.result !== "string") return m;
            const tx = call.params?.[0] ?? {};
            return { ...m, result: edit(tx.data ?? tx.input ?? "", m.result) };
          };
          res.setHeader("content-type", "application/json");
          res.end(JSON.stringify(Array.isArray(answer) ? answer.map(lied) : lied(answer as never)));
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

/** Each word holding `address` with its upper 12 bytes set to `ff…ff` (inside a batched call's answer too). */
const upperBytesSet =
  (address: string) =>
  (_callData: string, result: string): string =>
    result
      .toLowerCase()
      .split(`${"0".repeat(24)}${address.slice(2).toLowerCase()}`)
      .join(`${"f".repeat(24)}${address.slice(2).toLowerCase()}`);

/** The one line a task prints for `view`'s answer refused for `why` (a regular-expression source). */
const refusalLine = (view: string, why: string) =>
  new RegExp(
    `^Error: The localhost RPC endpoint failed: ${view.replace(/[()]/g, "\\$&")}: the answer is not the view's ABI value \\(${why}\\)\\. Check the endpoint and run again\\.$`,
    "m",
  );

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
    refusalLine(
      view,
      `\\$\\.${member}: 0xf{24}${author.slice(2).toLowerCase()} is not an address \\(it does not fit 160 bits\\)`,
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
    proxy = await startLyingProxy(chain.rpcUrl, upperBytesSet(author));
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

/** How the lying proxy of probe40 V-F4 cuts or pads a view's answer (hex data `0x…`). */
const MUTATIONS = {
  /** the last word dropped */
  short: (r: string) => r.slice(0, -64),
  /** the first word only */
  one: (r: string) => r.slice(0, 66),
  /** no data */
  empty: () => "0x",
  /** a zero word past the value */
  extra: (r: string) => `${r}${"0".repeat(64)}`,
  /** an odd number of hex digits */
  odd: (r: string) => r.slice(0, -1),
  /** not hex */
  nonhex: (r: string) => `${r.slice(0, -2)}zz`,
} as const;

// probe40 V-F4: an answer cut short (or empty) ended bounty:status, bounty:reclaim, anchor:check and
// anchor in ethers' BAD_DATA "could not decode result data" under "An unexpected error occurred" and a
// 10-frame stack trace; the transport refuses every answer that is not exactly its value's encoding
describe("a view answer cut short, padded, empty or no hex data (probe40 V-F4)", function () {
  let chain: DevChain;
  let dir: string;
  let book: string;
  let author: string, awarder: string, w1: string, w2: string, w3: string;
  let id: bigint;
  let proxy: { url: string; close(): Promise<void> };
  /** The selector whose answers the proxy mutates, and how (none: honest). */
  let lie: { selector: string; how: keyof typeof MUTATIONS } | undefined;
  const digest = `0x${"c2".repeat(32)}`;
  const fresh = `0x${"c3".repeat(32)}`;
  const GET_BOUNTY = "0xee8c4bbf";
  const ANCHOR_OF = "0xcf4ff901";

  const runVia = (rpcUrl: string, args: string[]): Promise<Run> =>
    hardhat([...args, "--network", "localhost"], {
      LOCAL_RPC_URL: rpcUrl,
      BENCH_BOUNTY_LOCAL_DEPLOYMENT: book,
    });
  /** `args` with `selector`'s answers mutated `how`: one line matching `said`, no stack trace, nothing sent. */
  async function refusedWith(
    selector: string,
    how: keyof typeof MUTATIONS,
    args: string[],
    said: RegExp,
  ): Promise<void> {
    lie = { selector, how };
    try {
      const before = await blockNumber(chain);
      const r = await runVia(proxy.url, args);
      expect(r.stderr + r.stdout, `${how}: no stack trace`).not.to.match(/^\s+at /m);
      expect(r.stderr + r.stdout, how).not.to.match(/An unexpected error occurred|could not decode/);
      expectRefusal(r, said);
      expect(r.stderr.trim().split("\n"), `${how}: one line`).to.have.length(1);
      expect(await blockNumber(chain), `${how}: nothing sent`).to.equal(before);
    } finally {
      lie = undefined;
    }
  }

  before(async function () {
    chain = await startChain();
    dir = tempDir();
    book = localDeploymentFile(dir, chain);
    [awarder, author, w1, w2, w3] = chain.accounts.slice(1, 6).map((a) => a.address);
    ({ id } = await closedSmallPackBounty(
      chain,
      dir,
      (args) => runVia(chain.rpcUrl, args),
      { author, awarder, winners: [w1, w2, w3] },
      "c0ffee41",
    ));
    expectOk(
      await runVia(chain.rpcUrl, ["anchor", "--from", author, "--digest", digest, "--kind", "receipt"]),
    );
    proxy = await startLyingProxy(chain.rpcUrl, (callData, result) =>
      lie !== undefined && callData.toLowerCase().startsWith(lie.selector)
        ? MUTATIONS[lie.how](result)
        : result,
    );
  });
  after(async function () {
    await proxy?.close();
    await chain?.stop();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  /** The refusal of an answer of `bytes` bytes that does not decode as the view's value. */
  const undecoded = (bytes: number) =>
    `the answer's ${bytes} bytes do not decode as the view's value \\(.+\\)`;
  const notHex = (shown: string) =>
    `the answer "${shown}" is not hex data \\(0x and an even number of hex digits\\)`;

  it("bounty:status and bounty:reclaim: a getBounty answer of one word, empty, or no hex data", async function () {
    const view = `getBounty(${id})`;
    const status = ["bounty:status", "--id", String(id), "--author", author];
    const reclaim = ["bounty:reclaim", "--id", String(id), "--from", author];
    const cases: [keyof typeof MUTATIONS, string[], string][] = [
      ["one", status, undecoded(32)],
      ["empty", status, "the answer is empty \\(0x\\): no value \\(is there a contract at the address\\?\\)"],
      ["one", reclaim, undecoded(32)],
      ["odd", reclaim, notHex("0x.+")],
    ];
    for (const [how, args, said] of cases) await refusedWith(GET_BOUNTY, how, args, refusalLine(view, said));
  });

  it("anchor:check and anchor: an anchorOf answer short, one word, padded or no hex data", async function () {
    const check = ["anchor:check", "--digest", digest];
    const send = ["anchor", "--from", author, "--digest", fresh, "--kind", "receipt"];
    const cases: [keyof typeof MUTATIONS, string[], string, string][] = [
      ["short", check, digest, undecoded(96)],
      ["extra", check, digest, "the answer is 160 bytes, not the 128 bytes of its value's encoding"],
      ["nonhex", check, digest, notHex("0x[0-9a-f]{75}\\.\\.\\.")],
      ["one", send, fresh, undecoded(32)],
      ["short", send, fresh, undecoded(96)],
    ];
    for (const [how, args, asked, said] of cases)
      await refusedWith(ANCHOR_OF, how, args, refusalLine(`anchorOf(${asked})`, said));
    // honest again: the same tasks go through
    expect(expectOk(await runVia(proxy.url, ["anchor:check", "--digest", digest]))).to.include(
      "Anchor check passed.",
    );
  });
});
