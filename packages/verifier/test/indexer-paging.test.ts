/**
 * probe16 B-F6: the award history (`GET /awards?winner=`) and the credits (`GET /accounts/:a/credits`)
 * of a winner are paged by the indexer (100 items, newest first, `nextCursor`). The verifier follows
 * the pages, bounded in pages and bytes: an honest indexer of a winner with more than 100 newer awards
 * is `verified`, and an indexer that pages forever ends the walk with a clear error (exit 3), one whose
 * cursor repeats is not the indexer (exit 2), never a false accusation and never exit 4.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isVerifierInputError, isVerifierNetworkError } from "../src/errors.js";
import { Disagreements, indexerGetter, notTheIndexer, type IndexerWalk } from "../src/indexer/context.js";
import { MAX_INDEXER_PAGES, creditAgreement } from "../src/indexer/credits.js";
import type { PackView } from "../src/pack.js";

const WINNER = "0x" + "99".repeat(20);
const BOUNTY = "7";
const AMOUNT = 60_000_000n;
const POOL = 100_000_000n;
const NEWER = 250; // newer awards and credits of the winner than bounty 7's: three pages of 100 before it

const benchmark = {
  bounty_id: BOUNTY,
  commit_root: "0x" + "11".repeat(32),
  pool_base_units: POOL,
  token: "0x" + "22".repeat(20),
  author: "0x" + "33".repeat(20),
  awarder: "0x" + "44".repeat(20),
  ranking_digest: "0x" + "55".repeat(32),
  award_tx: "0x" + "66".repeat(32),
  award_block: 5000,
};
const view = {
  benchmark,
  winners: [{ withdrawal_address: WINNER, amount_base_units: AMOUNT }],
} as unknown as PackView;

/** The indexer's award item of bounty `id` (every field as the pack says for bounty 7). */
function award(id: number, block: number): Record<string, unknown> {
  return {
    bountyId: String(id),
    token: benchmark.token,
    author: benchmark.author,
    awarder: benchmark.awarder,
    pool: String(POOL),
    testSetRoot: benchmark.commit_root,
    rankingDigest: benchmark.ranking_digest,
    authorRemainder: String(POOL - AMOUNT),
    paidToWinners: String(AMOUNT),
    winnerCount: 1,
    awardedBlock: String(block),
    awardedTx: benchmark.award_tx,
    winners: [{ place: 1, account: WINNER, amount: String(AMOUNT) }],
  };
}

/** The honest lists, newest first: NEWER later bounties, then bounty 7 (awarded at block 5000). */
const awards = [
  ...Array.from({ length: NEWER }, (_, i) => award(1000 - i, 9000 - i)),
  award(Number(BOUNTY), 5000),
];
const credits = [
  ...Array.from({ length: NEWER }, (_, i) => ({ bountyId: String(1000 - i), fromPlaces: "1" })),
  { bountyId: BOUNTY, fromPlaces: String(AMOUNT) },
];

let base: string;
const requests: string[] = [];
let closeServer: () => void;

/** One page of 100 from `start` (the cursor is the index of the next item: the honest fake's own form). */
function page(list: unknown[], cursor: string | null): { items: unknown[]; nextCursor: string | null } {
  const start = cursor === null ? 0 : Number(cursor);
  const items = list.slice(start, start + 100);
  return { items, nextCursor: start + 100 < list.length ? String(start + 100) : null };
}

beforeAll(async () => {
  let forever = 0;
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://x");
    requests.push(url.pathname + url.search);
    const [, mode] = url.pathname.split("/");
    const cursor = url.searchParams.get("cursor");
    const isAwards = url.pathname.endsWith("/awards");
    let body: Record<string, unknown>;
    if (mode === "honest") {
      const p = page(isAwards ? awards : credits, cursor);
      body = isAwards ? p : { account: WINNER, totals: [], credits: p.items, nextCursor: p.nextCursor };
    } else {
      // a liar: 100 items of other bounties on every page, a fresh cursor each time ("forever"), the same one
      // ("loop"), a lone surrogate ("surrogate") or 200 KiB ("huge")
      const next =
        mode === "forever"
          ? `${10_000_000 - ++forever}:0`
          : mode === "surrogate"
            ? "\ud800"
            : mode === "huge"
              ? "x".repeat(200 * 1024)
              : "5:0";
      const items = isAwards ? awards.slice(0, 100) : credits.slice(0, 100);
      body = isAwards
        ? { items, nextCursor: next }
        : { account: WINNER, totals: [], credits: items, nextCursor: next };
    }
    res.setHeader("content-type", "application/json");
    res.end(JSON.stringify(body));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  closeServer = () => {
    server.closeAllConnections();
    server.close();
  };
});

afterAll(() => closeServer());

function walkOf(mode: string): IndexerWalk {
  const url = `${base}/${mode}/`;
  return {
    view,
    derived: { rankingDigest: null } as unknown as IndexerWalk["derived"],
    chain: null,
    onProgress: undefined,
    target: `indexer ${base}`,
    get: indexerGetter(url, 5_000, 1 << 20),
    notTheIndexer: (route, why) => notTheIndexer(url, route, why),
  };
}

describe("the award history and credits of a prolific winner are read page by page (probe16 B-F6)", () => {
  it("an honest indexer of a winner with 250 newer awards and credits is verified: the pages are followed", async () => {
    requests.length = 0;
    const found = new Disagreements();
    await creditAgreement(walkOf("honest"), found);
    expect(found.reasons).toEqual([]);
    const lists = (path: string): string[] => requests.filter((r) => r.includes(path));
    expect(lists("/awards?")).toEqual([
      `/honest/awards?winner=${WINNER}&limit=100`,
      `/honest/awards?winner=${WINNER}&limit=100&cursor=100`,
      `/honest/awards?winner=${WINNER}&limit=100&cursor=200`,
    ]);
    expect(lists("/credits")).toHaveLength(3);
  });

  it("an indexer that pages forever is read at most MAX_INDEXER_PAGES pages, then a network error (exit 3), not a FAIL", async () => {
    requests.length = 0;
    const found = new Disagreements();
    const walk = creditAgreement(walkOf("forever"), found);
    await walk.then(
      () => expect.fail("the walk ended without an error"),
      (e: unknown) => {
        expect(isVerifierNetworkError(e)).toBe(true);
        expect((e as Error).message).toMatch(
          `indexer ${base}: GET /awards?winner=${WINNER}&limit=100: bounty ${BOUNTY} is not within the first ${MAX_INDEXER_PAGES} pages (`,
        );
        expect((e as Error).message).toMatch(
          /bytes\) of the list, the verifier's bound \(100 pages, 67108864 bytes\): cannot check it$/,
        );
      },
    );
    expect(requests.length).toBe(MAX_INDEXER_PAGES);
    expect(found.reasons).toEqual([]);
  });

  it("an indexer whose nextCursor repeats is not the indexer (exit 2 indexer_refused), after two pages", async () => {
    requests.length = 0;
    const found = new Disagreements();
    await creditAgreement(walkOf("loop"), found).then(
      () => expect.fail("the walk ended without an error"),
      (e: unknown) => {
        expect(isVerifierInputError(e)).toBe(true);
        expect(e).toMatchObject({ code: "indexer_refused", path: "--indexer" });
        expect((e as Error).message).toContain(
          `GET /awards?winner=${WINNER}&limit=100&cursor=5%3A0 is not the indexer's`,
        );
        expect((e as Error).message).toContain('nextCursor "5:0" was already followed');
      },
    );
    expect(requests.length).toBe(2);
  });

  // probe19 B-F1 (a lone surrogate made `verify` exit 4 "URI malformed"), B-F2 (a 200 KiB cursor was echoed
  // in a 200 KiB error line, and sent)
  it.each([
    ["surrogate", /its nextCursor ".{0,1}" \(length 1\) is not a cursor of the indexer's paging/],
    [
      "huge",
      `its nextCursor "${"x".repeat(77)}..." (length ${200 * 1024}) is not a cursor of the indexer's paging`,
    ],
  ])(
    "a nextCursor of another form (%s) is not the indexer (exit 2), never followed, quoted briefly",
    async (mode, quoted) => {
      requests.length = 0;
      await creditAgreement(walkOf(mode), new Disagreements()).then(
        () => expect.fail("the walk ended without an error"),
        (e: unknown) => {
          expect(isVerifierInputError(e)).toBe(true);
          expect(e).toMatchObject({ code: "indexer_refused", path: "--indexer" });
          const message = (e as Error).message;
          expect(message).toMatch(quoted);
          expect(message.length).toBeLessThan(1000);
        },
      );
      expect(requests).toEqual([`/${mode}/awards?winner=${WINNER}&limit=100`]);
    },
  );
});
