/**
 * probe26 B-F8: `bounty:credits` / `bounty:claim --all --indexer URL` read the indexer with no size
 * limit and no timeout (an endless error body grew the task to 3.3 GB; a silent indexer hung it for
 * ever), and an answer of another shape (HTML, `bountyId` "abc", 1.5, "-1", 100 digits) crashed with a
 * stack. Each answer is now read within a byte limit and `--indexer-timeout`, parsed strictly and
 * checked against the page's shape: one line naming the indexer's origin and the JSON path, exit 1.
 * A fake indexer over node:http; the tasks run as the CLI runs them (subprocess: no stack trace).
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { expect } from "chai";
import { MAX_INDEXER_LAG_BLOCKS, MAX_INDEXER_PAGE_BYTES } from "../lib/indexer";
import { blockNumber, expectRefusal, indexerStatus, startIndexer, useTaskChain } from "./helpers";

/** A winner-to-be: the devchain's fourth account (no credit: the indexer's answer is what is tested). */
const ACCOUNT = "0x90F79bf6EB2c4f870365E785982E1f101E93b906";
/** How much the endless answers send at most (the limits are far below). */
const ENDLESS_BYTES = 64 * 1024 * 1024;

/** A page of credits (the indexer's JSON) holding `credits` and `nextCursor`. */
function page(credits: unknown, nextCursor: unknown = null): string {
  return JSON.stringify({ account: ACCOUNT, totals: [], credits, nextCursor });
}

/** Writes up to {@link ENDLESS_BYTES} after `head` (then `tail`), 1 MiB at a time; returns the bytes written when the reader left. */
async function endless(res: http.ServerResponse, head: string, tail: string): Promise<number> {
  const chunk = Buffer.alloc(1024 * 1024, "x");
  let written = 0;
  res.write(head);
  while (written < ENDLESS_BYTES && !res.destroyed) {
    written += chunk.length;
    if (!res.write(chunk))
      await new Promise<void>((r) => {
        const done = () => {
          res.off("drain", done);
          res.off("close", done);
          r();
        };
        res.on("drain", done);
        res.on("close", done);
      });
  }
  res.end(tail);
  return written;
}

describe("bounty:credits / bounty:claim --indexer: bounded, timed, checked answers (probe26 B-F8)", function () {
  this.timeout(300_000);
  const local = useTaskChain();
  const sent: Record<string, number> = {};
  let base = "";
  let server: http.Server;

  before(async function () {
    server = http.createServer((req, res) => {
      const mode = (req.url ?? "/").split("/")[1]!;
      const json = (status: number, body: string) =>
        res.writeHead(status, { "content-type": "application/json" }).end(body);
      const cursor = new URL(req.url ?? "/", "http://x").searchParams.get("cursor");
      switch (mode) {
        case "html":
          return res.writeHead(200, { "content-type": "text/html" }).end("<html>not json</html>");
        case "abc":
          return json(200, page([{ bountyId: "abc", outstanding: "1" }]));
        case "frac":
          return json(200, page([{ bountyId: 1.5, outstanding: "1" }]));
        case "neg":
          return json(200, page([{ bountyId: "-1", outstanding: "1" }]));
        case "huge":
          return json(200, page([{ bountyId: "9".repeat(100), outstanding: "1" }]));
        case "zero":
          return json(200, page([{ bountyId: "0", outstanding: "1" }]));
        case "nolist":
          return json(200, JSON.stringify({ error: "what" }));
        case "loop":
          // every page points at the same cursor: the pages would never end
          return json(200, page([], cursor ?? "5"));
        case "hang":
          return; // accepts, never answers
        case "endless500":
          res.writeHead(500, { "content-type": "text/plain" });
          return void endless(res, "", "").then((n) => (sent[mode] = n));
        case "endless200":
          res.writeHead(200, { "content-type": "application/json" });
          return void endless(res, `{"credits":[],"nextCursor":null,"pad":"`, `"}`).then(
            (n) => (sent[mode] = n),
          );
        default:
          return json(404, "{}");
      }
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(function () {
    server?.closeAllConnections();
    server?.close();
  });

  const credits = (mode: string, ...more: string[]) =>
    local.run(["bounty:credits", "--account", ACCOUNT, "--indexer", `${base}/${mode}`, ...more]);

  it("an answer of another shape is one line naming the origin and the JSON path, no stack", async function () {
    const origin = base.replace(/[.:/]/g, "\\$&");
    const cases: [string, RegExp][] = [
      ["html", /with something that is not JSON \(.*\): is --indexer the indexer's REST base URL\?/],
      [
        "abc",
        /\$\.credits\[0\]\.bountyId: expected a bounty id: a uint256 decimal string \(1 to 2\^256-1\), got the string "abc"/,
      ],
      ["frac", /\$\.credits\[0\]\.bountyId: expected string, got the float 1\.5/],
      ["neg", /\$\.credits\[0\]\.bountyId: expected a bounty id.*got the string "-1"/],
      ["huge", /\$\.credits\[0\]\.bountyId: expected a bounty id.*got the string "9{40}\.\.\."/],
      ["zero", /\$\.credits\[0\]\.bountyId: expected a bounty id.*got the string "0"/],
      ["nolist", /\$\.credits: is required/],
      ["loop", /\$\.nextCursor 5, not below the cursor 5 it was given: its pages do not end/],
    ];
    for (const [mode, pattern] of cases) {
      const r = await credits(mode);
      expectRefusal(r, pattern);
      expect(r.stderr, mode).to.match(new RegExp(`^Error: The indexer at ${origin}`, "m"));
      expect(r.stderr.trim().split("\n"), mode).to.have.length(1);
    }
  });

  it("bounty:claim --all --indexer refuses the same way, nothing sent", async function () {
    await local.refuses(
      ["bounty:claim", "--from", ACCOUNT, "--all", "--indexer", `${base}/abc`],
      /\$\.credits\[0\]\.bountyId: expected a bounty id/,
    );
  });

  it("an endless error answer is read no further than its limit", async function () {
    const r = await credits("endless500");
    expectRefusal(
      r,
      /The indexer answered 500 for \/endless500\/accounts\/.*: \(a body of more than 4096 bytes, not shown\)/,
    );
    expect(sent.endless500 ?? 0, "the server was cut off").to.be.below(ENDLESS_BYTES);
  });

  it("an endless 200 answer is refused at the page limit", async function () {
    const r = await credits("endless200");
    expectRefusal(
      r,
      new RegExp(
        `with too much: the indexer answer is more than the limit of ${MAX_INDEXER_PAGE_BYTES} bytes`,
      ),
    );
    expect(sent.endless200 ?? 0, "the server was cut off").to.be.below(ENDLESS_BYTES);
  });

  it("an indexer that never answers is given up after --indexer-timeout", async function () {
    const t0 = Date.now();
    const r = await credits("hang", "--indexer-timeout", "1500");
    expectRefusal(r, /did not answer GET \/hang\/accounts\/.* within 1500 ms \(--indexer-timeout\)/);
    expect(Date.now() - t0).to.be.below(60_000);
  });

  it("a bad --indexer-timeout, or one without --indexer, is refused naming the flag", async function () {
    for (const bad of ["0", "1.5", "99999999999"])
      expectRefusal(
        await credits("abc", "--indexer-timeout", bad),
        /--indexer-timeout must be a whole number of milliseconds from 1 to 2147483647/,
      );
    expectRefusal(
      await local.run(["bounty:credits", "--account", ACCOUNT, "--indexer-timeout", "1000"]),
      /--indexer-timeout is only used with --indexer\./,
    );
  });
});

/**
 * probe28c C-F11: a lagging indexer's credits were listed (and claimed) as if complete. The tasks now
 * read its head (`GET /status`) and, when it is more than MAX_INDEXER_LAG_BLOCKS behind the chain, say
 * so on stderr with both block numbers, before anything is listed or claimed; an indexer that cannot
 * say its head is named as such.
 */
describe("bounty:credits / bounty:claim --all --indexer: a lagging indexer is said to lag (probe28c C-F11)", function () {
  this.timeout(300_000);
  const local = useTaskChain();
  let indexed: number | null = 1;
  let indexer: Awaited<ReturnType<typeof startIndexer>>;
  let plain: Awaited<ReturnType<typeof startIndexer>>;

  before(async function () {
    await local.chain.mine(MAX_INDEXER_LAG_BLOCKS + 5);
    indexer = await startIndexer(
      () => [],
      () =>
        indexed === null
          ? { base: { id: local.chain.chainId } }
          : indexerStatus(local.chain.chainId, indexed),
    );
    plain = await startIndexer(() => []); // no /status
  });
  after(async function () {
    await indexer?.close();
    await plain?.close();
  });

  const credits = (url: string) => local.run(["bounty:credits", "--account", ACCOUNT, "--indexer", url]);

  it("an indexer behind the chain: both block numbers, and what is not listed", async function () {
    indexed = 1;
    const head = Number(await local.chain.publicClient.getBlockNumber());
    expect(head - indexed).to.be.greaterThan(MAX_INDEXER_LAG_BLOCKS);
    const r = await credits(indexer.url);
    expect(r.code, r.stderr).to.equal(0);
    expect(r.stderr).to.include(
      `Warning: the indexer at ${indexer.url} has indexed up to block 1, the chain is at block ${head} (${head - 1} blocks behind): credits awarded after block 1 are not listed`,
    );
  });

  it("bounty:claim --all --indexer says the same before it claims (here: refuses, nothing sent)", async function () {
    indexed = 1;
    const before = await blockNumber(local.chain);
    const r = await local.run(["bounty:claim", "--from", ACCOUNT, "--all", "--indexer", indexer.url]);
    expectRefusal(r, /has no outstanding credit on localhost/);
    expect(r.stderr).to.match(
      /^Warning: the indexer at \S+ has indexed up to block 1, the chain is at block \d+ .*credits awarded after block 1 are not listed[^\n]*\nError: /m,
    );
    expect(await blockNumber(local.chain)).to.equal(before);
  });

  it("an indexer at the head: no warning", async function () {
    indexed = Number(await local.chain.publicClient.getBlockNumber());
    const r = await credits(indexer.url);
    expect(r.code, r.stderr).to.equal(0);
    expect(r.stderr).to.equal("");
  });

  it("an indexer that cannot say its head is reported as such", async function () {
    const r = await credits(plain.url);
    expect(r.code, r.stderr).to.equal(0);
    expect(r.stderr).to.match(
      /^Warning: the indexer at \S+ cannot say which block it has indexed \(The indexer answered 404 for \/status: \{\}\): credits it has not indexed are not listed/m,
    );
    indexed = null;
    const noBlock = await credits(indexer.url);
    expect(noBlock.stderr).to.include('without a block number at "$.base.block.number"');
  });
});
