/**
 * probe27 C-F8 (verifier part): anyone can award any address (a bounty of one base unit), so a winner's
 * award history (`GET /awards?winner=`) and credits (`GET /accounts/:a/credits`) are lists a stranger can
 * grow. The verifier followed their pages until the pack's bounty, within 100 pages of 100: after ~10,000
 * dust awards to a winner, `--policy full` exited 3 with one line and no fact. The award and the credit
 * are now read by the bounty's key (`&bounty=<id>`, `?bounty=<id>`): two GETs per winner address, whatever
 * its history. An indexer older than that read (it refuses the parameter `bounty`) leaves that part
 * unobserved: `indexer_agreement` is `unverified` (or `failed` when something else disagrees), never an
 * exception that hides every other fact. (probe16 B-F6's paging, and its cursor checks, are gone with it.)
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isVerifierInputError } from "../src/errors.js";
import { Disagreements, indexerGetter, notTheIndexer, type IndexerWalk } from "../src/indexer/context.js";
import { creditAgreement } from "../src/indexer/credits.js";
import { verifyIndexer } from "../src/indexer/index.js";
import type { OfflineDerived } from "../src/offline/index.js";
import type { PackView } from "../src/pack.js";
import { AMOUNT, BOUNTY, POOL, WINNER, benchmark, view } from "./fixtures/one-winner-view.js";

const STRANGER = "0x" + "77".repeat(20);
/** Another token (a JUNK token on the same chain) and a burn address, as a lying indexer names them. */
const OTHER_TOKEN = "0x" + "2b".repeat(20);
const DEAD = "0x000000000000000000000000000000000000dead";
/** Dust awards to the winner after bounty 7's: 101 pages of 100 before it, past the old bound of 100. */
const DUST = 10_050;

const derived = { rankingDigest: null, receiptHashes: [], packHash: null } as unknown as OfflineDerived;

/** The indexer's award item of bounty `id` to WINNER (every field as the pack says for bounty 7; dust else). */
function award(id: number, block: number): { bountyId: string } & Record<string, unknown> {
  const amount = id === Number(BOUNTY) ? AMOUNT : 1n;
  const pool = id === Number(BOUNTY) ? POOL : 1n;
  return {
    bountyId: String(id),
    token: benchmark.token,
    author: benchmark.author,
    awarder: benchmark.awarder,
    pool: String(pool),
    testSetRoot: benchmark.commit_root,
    rankingDigest: benchmark.ranking_digest,
    authorRemainder: String(pool - amount),
    paidToWinners: String(amount),
    winnerCount: 1,
    awardedBlock: String(block),
    awardedTx: benchmark.award_tx,
    winners: [{ place: 1, account: WINNER, amount: String(amount) }],
  };
}

/** WINNER's history, newest first: DUST later dust bounties, then bounty 7 (awarded at block 5000). */
const awards = [
  ...Array.from({ length: DUST }, (_, i) => award(100_000 - i, 900_000 - i)),
  award(Number(BOUNTY), 5000),
];
const credits = awards.map((a) => ({
  bountyId: a.bountyId,
  account: WINNER,
  token: benchmark.token,
  credited: (a.winners as { amount: string }[])[0]!.amount,
  fromPlaces: (a.winners as { amount: string }[])[0]!.amount,
  fromRemainder: "0",
  places: [1],
}));

let base: string;
const requests: string[] = [];
let closeServer: () => void;

/**
 * The indexer's REST answers for `mode`: "current" (this indexer: `bounty` filters, pages of `limit`),
 * "old" (an indexer before the keyed read: 400 `invalid_parameter` naming `bounty`), "liar" (answers a
 * keyed read with another bounty's item), "refuses-winner" (400 naming `winner`: not the old indexer).
 */
function answer(mode: string, url: URL): { status: number; body: unknown } {
  const path = url.pathname.slice(mode.length + 1);
  const q = url.searchParams;
  if (path === `/bounties/${BOUNTY}`) {
    const a = award(Number(BOUNTY), 5000);
    return {
      status: 200,
      body: {
        bounty: {
          ...a,
          id: mode === "other-bounty" ? "2" : String(BOUNTY),
          // one disagreement on demand, so a failed fact can be told from an unverified one
          pool: q.has("x") ? "1" : a.pool,
          status: "Awarded",
          leafCount: String(benchmark.leaf_count),
          // probe29 B-F5: a value that differs only by a space
          closesAt: (mode === "spaces" ? " " : "") + String(benchmark.closes_at),
          thresholdBps: 0,
          splitsBps: [10000],
        },
        // the bounty's credit records: the winner's and the author's remainder (SPEC 7.3)
        credits: [
          { account: WINNER, fromPlaces: String(AMOUNT), fromRemainder: "0", places: [1] },
          { account: benchmark.author, fromPlaces: "0", fromRemainder: String(POOL - AMOUNT), places: [] },
          ...(mode === "bounty-credits-lie"
            ? [{ account: DEAD, fromPlaces: "5", fromRemainder: "0", places: [] }]
            : []),
        ].map((c) => ({
          bountyId: String(BOUNTY),
          token: benchmark.token,
          credited: String(BigInt(c.fromPlaces) + BigInt(c.fromRemainder)),
          ...c,
          ...(mode === "bounty-credits-lie" && c.account === WINNER ? { fromPlaces: "1", places: [2] } : {}),
        })),
        // the bounty's own winner rows state the bounty, the token and the award (probe29 C-F2)
        winners: (a.winners as Record<string, unknown>[]).map((w) => ({
          ...w,
          bountyId: mode === "other-bounty" ? "2" : String(BOUNTY),
          token: mode === "token-lies" ? OTHER_TOKEN : benchmark.token,
          awardedTx: a.awardedTx,
          awardedBlock: a.awardedBlock,
        })),
      },
    };
  }
  if (mode === "old" && q.has("bounty"))
    return {
      status: 400,
      body: {
        error: { code: "invalid_parameter", parameter: "bounty", message: 'unknown parameter "bounty"' },
      },
    };
  // a path parameter the verifier took from the pack, refused (probe29 C-F3)
  if (mode === "refuses-address" && path.startsWith("/accounts/"))
    return {
      status: 400,
      body: { error: { code: "invalid_parameter", parameter: "address", message: "no" } },
    };
  if (mode === "refuses-winner")
    return {
      status: 400,
      body: { error: { code: "invalid_parameter", parameter: "winner", message: "no" } },
    };
  const account = path.startsWith("/accounts/") ? path.split("/")[2] : q.get("winner");
  let list: { bountyId: string }[] = account === WINNER ? (path === "/awards" ? awards : credits) : [];
  const bounty = q.get("bounty");
  if (bounty !== null) list = list.filter((it) => it.bountyId === bounty);
  if (mode === "liar" && bounty !== null) list = [path === "/awards" ? awards[0]! : credits[0]!];
  // the credit record names another place, credited amount and a remainder (probe28 B-F13)
  if (mode === "credit-lies" && path !== "/awards")
    list = list.map((it) => ({ ...it, places: [9], credited: "999999999999", fromRemainder: "7" }));
  // the award history's winners and the credit record name another token, the record another account
  // (probe29 C-F2)
  if (mode === "token-lies")
    list = list.map((it) =>
      path === "/awards"
        ? {
            ...it,
            winners: (it as unknown as { winners: object[] }).winners.map((w) => ({
              ...w,
              token: OTHER_TOKEN,
            })),
          }
        : { ...it, token: OTHER_TOKEN, account: DEAD },
    );
  // a second record of the same bounty, every amount changed (probe28 C-F13)
  if (mode === "twice" && bounty !== null)
    list = [
      ...list,
      ...list.map((it) =>
        path === "/awards"
          ? { ...it, winners: [{ place: 1, account: WINNER, amount: "99999999" }], paidToWinners: "99999999" }
          : { ...it, fromPlaces: "99999999" },
      ),
    ];
  const limit = Number(q.get("limit") ?? 50);
  const start = Number(q.get("cursor") ?? 0);
  const items = list.slice(start, start + limit);
  const nextCursor = start + limit < list.length ? String(start + limit) : null;
  return {
    status: 200,
    body: path === "/awards" ? { items, nextCursor } : { account, totals: [], credits: items, nextCursor },
  };
}

beforeAll(async () => {
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://x");
    requests.push(url.pathname + url.search);
    const [, mode] = url.pathname.split("/");
    const { status, body } = answer(mode!, url);
    res.statusCode = status;
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

function walkOf(mode: string, winners = view.winners): IndexerWalk {
  const url = `${base}/${mode}/`;
  return {
    view: { ...view, winners } as PackView,
    derived,
    chain: null,
    onProgress: undefined,
    target: `indexer ${base}`,
    get: indexerGetter(url, 5_000, 1 << 20),
    notTheIndexer: (route, why) => notTheIndexer(url, route, why),
  };
}

describe("a winner's award and credit are read by the bounty's key (probe27 C-F8)", () => {
  it("buried under 10,050 newer dust awards: verified with one GET each, the history never paged", async () => {
    requests.length = 0;
    const found = new Disagreements();
    await creditAgreement(walkOf("current"), found);
    expect(found.reasons).toEqual([]);
    expect(found.unobserved).toEqual([]);
    expect(requests).toEqual([
      `/current/awards?winner=${WINNER}&bounty=${BOUNTY}`,
      `/current/accounts/${WINNER}/credits?bounty=${BOUNTY}`,
    ]);
  });

  it("the whole cross-check of that winner's pack is verified", async () => {
    const f = await verifyIndexer(view, derived, null, { indexerUrl: `${base}/current/` });
    expect(f).toEqual({
      state: "verified",
      reasons: [
        `the indexer agrees on bounty ${BOUNTY}, its award (1 winners), credits and 0 anchors (pack only: no --rpc)`,
      ],
    });
  });

  it("an address the indexer has no such award for is a disagreement (the keyed answer is empty)", async () => {
    const found = new Disagreements();
    await creditAgreement(
      walkOf("current", [{ withdrawal_address: STRANGER, amount_base_units: AMOUNT }] as PackView["winners"]),
      found,
    );
    expect(found.reasons).toEqual([
      `GET /awards?winner=${STRANGER}&bounty=${BOUNTY}: bounty ${BOUNTY} is not in ${STRANGER}'s award history`,
      `GET /accounts/${STRANGER}/credits?bounty=${BOUNTY}: no credit on bounty ${BOUNTY}`,
    ]);
  });

  it("a keyed answer holding a second, contradicting record of the bounty is a disagreement (probe28 C-F13)", async () => {
    const found = new Disagreements();
    await creditAgreement(walkOf("twice"), found);
    expect(found.reasons).toEqual([
      `GET /awards?winner=${WINNER}&bounty=${BOUNTY}: 2 of its items are of bounty ${BOUNTY}, one was expected (a bounty is awarded once)`,
      `GET /accounts/${WINNER}/credits?bounty=${BOUNTY}: 2 of its credits are of bounty ${BOUNTY}, one was expected (a bounty is awarded once)`,
    ]);
  });

  it("a credit record naming another place, credited amount or remainder is a disagreement (probe28 B-F13)", async () => {
    const found = new Disagreements();
    await creditAgreement(walkOf("credit-lies"), found);
    const route = `GET /accounts/${WINNER}/credits?bounty=${BOUNTY}`;
    expect(found.reasons).toEqual([
      `${route}: credits[bounty ${BOUNTY}].fromRemainder is 7, the pack says 0`,
      `${route}: credits[bounty ${BOUNTY}].credited is 999999999999, the pack says ${AMOUNT}`,
      `${route}: credits[bounty ${BOUNTY}].places is [9], the pack says [1]`,
    ]);
  });

  it("winner records and a credit record naming another token, or another account, are disagreements (probe29 C-F2)", async () => {
    const f = await verifyIndexer(view, derived, null, { indexerUrl: `${base}/token-lies/` });
    expect(f.state).toBe("failed");
    const credits = `GET /accounts/${WINNER}/credits?bounty=${BOUNTY}`;
    for (const reason of [
      `GET /bounties/${BOUNTY}: winners[0].token is ${OTHER_TOKEN}, the pack says ${benchmark.token.toLowerCase()}`,
      `GET /awards?winner=${WINNER}&bounty=${BOUNTY}: items[0].winners[0].token is ${OTHER_TOKEN}, the pack says ${benchmark.token.toLowerCase()}`,
      `${credits}: credits[bounty ${BOUNTY}].account is ${DEAD}, the pack says ${WINNER.toLowerCase()}`,
      `${credits}: credits[bounty ${BOUNTY}].token is ${OTHER_TOKEN}, the pack says ${benchmark.token.toLowerCase()}`,
    ])
      expect(f.reasons).toContain(reason);
  });

  it("a /bounties/:id answer of another bounty, its winners of that bounty, is a disagreement (probe29 C-F2)", async () => {
    const f = await verifyIndexer(view, derived, null, { indexerUrl: `${base}/other-bounty/` });
    expect(f.state).toBe("failed");
    expect(f.reasons).toContain(`GET /bounties/${BOUNTY}: bounty.id is 2, the pack says ${BOUNTY}`);
    expect(f.reasons).toContain(`GET /bounties/${BOUNTY}: winners[0].bountyId is 2, the pack says ${BOUNTY}`);
  });

  it("the bounty's credit records as the pack implies them: an extra account or another amount is a disagreement", async () => {
    const f = await verifyIndexer(view, derived, null, { indexerUrl: `${base}/bounty-credits-lie/` });
    expect(f.state).toBe("failed");
    const route = `GET /bounties/${BOUNTY}`;
    expect(f.reasons).toEqual([
      `${route}: 3 credits, the pack implies 2`,
      `${route}: credits[0].fromPlaces is 1, the pack says ${AMOUNT}`,
      `${route}: credits[0].places is [2], the pack says [1]`,
      `${route}: credits[2].account is ${DEAD}, not an account the pack credits`,
    ]);
  });

  it("the current indexer's answers, every stated field as the pack says: verified", async () => {
    const f = await verifyIndexer(view, derived, null, { indexerUrl: `${base}/current/` });
    expect([f.state, f.reasons]).toEqual(["verified", [expect.stringMatching(/^the indexer agrees/)]]);
  });

  it("a keyed answer holding another bounty's item is a disagreement, not the pack's award", async () => {
    const found = new Disagreements();
    await creditAgreement(walkOf("liar"), found);
    expect(found.reasons).toEqual([
      `GET /awards?winner=${WINNER}&bounty=${BOUNTY}: 1 of its items are of another bounty (100000), asked for bounty ${BOUNTY} only`,
      `GET /awards?winner=${WINNER}&bounty=${BOUNTY}: bounty ${BOUNTY} is not in ${WINNER}'s award history`,
      `GET /accounts/${WINNER}/credits?bounty=${BOUNTY}: 1 of its credits are of another bounty (100000), asked for bounty ${BOUNTY} only`,
      `GET /accounts/${WINNER}/credits?bounty=${BOUNTY}: no credit on bounty ${BOUNTY}`,
    ]);
  });

  it("an indexer older than the keyed read: indexer_agreement is unverified naming what was not checked, not an exception", async () => {
    requests.length = 0;
    const f = await verifyIndexer(view, derived, null, { indexerUrl: `${base}/old/` });
    expect(f.state).toBe("unverified");
    expect(f.reasons).toEqual([
      `GET /awards?winner=${WINNER}&bounty=${BOUNTY}: the indexer refuses the parameter bounty (http 400: an indexer older than this verifier, without the keyed read): ${WINNER}'s award history could not be checked`,
      `GET /accounts/${WINNER}/credits?bounty=${BOUNTY}: the indexer refuses the parameter bounty (http 400: an indexer older than this verifier, without the keyed read): ${WINNER}'s credits could not be checked`,
      "the rest agrees: the bounty, its award and 0 anchors (pack only: no --rpc)",
    ]);
    // nothing paged: one refused GET per list
    expect(requests.filter((r) => !r.includes("/bounties/"))).toHaveLength(2);
  });

  it("an older indexer that also disagrees: failed, the disagreement first, the unobserved parts listed", async () => {
    const f = await verifyIndexer(view, derived, null, { indexerUrl: `${base}/old/?x=1` });
    expect(f.state).toBe("failed");
    expect(f.reasons[0]).toBe(`GET /bounties/${BOUNTY}: bounty.pool is 1, the pack says ${POOL}`);
    expect(f.reasons.slice(1).every((r) => r.includes("refuses the parameter bounty"))).toBe(true);
    expect(f.reasons).toHaveLength(3);
  });

  it("a refusal of a path parameter taken from the pack names the pack's field, not the URL (probe29 C-F3)", async () => {
    const f = await verifyIndexer(view, derived, null, { indexerUrl: `${base}/refuses-address/` });
    expect(f.state).toBe("unverified");
    expect(f.reasons[0]).toBe(
      `GET /accounts/${WINNER}/credits?bounty=${BOUNTY}: the indexer refuses $.winners[0].withdrawal_address as its parameter address (http 400 invalid_parameter): not compared`,
    );
  });

  it("a refusal naming another parameter is still the configuration error it was (exit 2, indexer_refused)", async () => {
    await creditAgreement(walkOf("refuses-winner"), new Disagreements()).then(
      () => expect.fail("the walk ended without an error"),
      (e: unknown) => {
        expect(isVerifierInputError(e)).toBe(true);
        expect(e).toMatchObject({ code: "indexer_refused", path: "--indexer" });
        expect((e as Error).message).toContain("invalid_parameter (parameter winner)");
      },
    );
  });
});

describe("a disagreement shows a value that is not plain quoted (probe29 B-F5)", () => {
  it("an indexer value with a leading space reads as a JSON string, not as the pack's number", async () => {
    const f = await verifyIndexer(view, derived, null, { indexerUrl: `${base}/spaces/` });
    expect(f.state).toBe("failed");
    expect(f.reasons).toContain(
      `GET /bounties/${BOUNTY}: bounty.closesAt is " ${benchmark.closes_at}", the pack says ${benchmark.closes_at}`,
    );
  });

  it("plain values stay unquoted; empty, spaced, quoted or null-like text is JSON-quoted", () => {
    const found = new Disagreements();
    found.cmp("/r", "a", "5", "6");
    found.cmp("/r", "b", "", "6");
    found.cmp("/r", "c", "null", null);
    found.cmp("/r", "d", "1\t", "1");
    found.cmp("/r", "e", '"1"', "1");
    found.cmp("/r", "f", "[1,2]", "[1]");
    expect(found.reasons).toEqual([
      "GET /r: a is 5, the pack says 6",
      'GET /r: b is "", the pack says 6',
      'GET /r: c is "null", the pack says null',
      'GET /r: d is "1\\t", the pack says 1',
      'GET /r: e is "\\"1\\"", the pack says 1',
      "GET /r: f is [1,2], the pack says [1]",
    ]);
  });
});
