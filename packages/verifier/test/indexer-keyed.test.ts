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
import { describe, expect, it } from "vitest";
import { isVerifierInputError } from "../src/errors.js";
import { Disagreements, indexerGetter, notTheIndexer, type IndexerWalk } from "../src/indexer/context.js";
import { creditAgreement } from "../src/indexer/credits.js";
import { verifyIndexer } from "../src/indexer/index.js";
import { isBehindThePack } from "../src/indexer/head.js";
import type { OfflineDerived } from "../src/offline/index.js";
import type { ChainObservation } from "../src/onchain/index.js";
import type { PackView } from "../src/pack.js";
import { AMOUNT, BOUNTY, POOL, WINNER, benchmark, view } from "./fixtures/one-winner-view.js";
import { useStubIndexer } from "./helpers.js";

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

const requests: string[] = [];

/**
 * The indexer's REST answers for `mode`: "current" (this indexer: `bounty` filters, pages of `limit`),
 * "old" (an indexer before the keyed read: 400 `invalid_parameter` naming `bounty`), "liar" (answers a
 * keyed read with another bounty's item), "refuses-winner" (400 naming `winner`: not the old indexer).
 */
/** `body` with the claim fields the indexer serves, WINNER's places and credit claimed or not, the author's not. */
function withClaims(body: unknown, claimed: boolean): unknown {
  if (Array.isArray(body)) return body.map((x) => withClaims(x, claimed));
  if (typeof body !== "object" || body === null) return body;
  const o = Object.fromEntries(Object.entries(body).map(([k, v]) => [k, withClaims(v, claimed)]));
  const paid = claimed && o.account === WINNER;
  if ("place" in o && "amount" in o)
    return { ...o, claimedAmount: paid ? o.amount : "0", outstanding: paid ? "0" : o.amount };
  if ("credited" in o)
    return { ...o, claimed: paid ? o.credited : "0", outstanding: paid ? "0" : o.credited };
  return o;
}

function answer(mode: string, url: URL): { status: number; body: unknown } {
  const path = url.pathname.slice(mode.length + 1);
  const q = url.searchParams;
  // "claims-<head>-<claimed|unclaimed>": the current answers with their claim fields, WINNER's credit
  // claimed or not, and Ponder's /status at <head> (probe29 C-F2 variants)
  if (mode.startsWith("claims-")) {
    const [, head, state] = mode.split("-");
    if (path === "/status")
      return { status: 200, body: { base: { id: 8453, block: { number: Number(head), timestamp: 0 } } } };
    const current = answer("current", new URL(`/current${path}${url.search}`, url));
    return { status: current.status, body: withClaims(current.body, state === "claimed") };
  }
  // an Awarded bounty whose record also carries a reclaim (probe29 C-F2 variant)
  if (mode === "reclaimed-too" && path === `/bounties/${BOUNTY}`) {
    const current = answer("current", new URL(`/current${path}`, url)).body as Record<string, object>;
    return {
      status: 200,
      body: {
        ...current,
        bounty: {
          ...current.bounty,
          reclaimedTx: "0x" + "ab".repeat(32),
          reclaimedAmount: String(POOL),
          reclaimedTo: benchmark.author,
          reclaimedBlock: "5013",
        },
        reclaim: { bountyId: String(BOUNTY), to: benchmark.author, amount: String(POOL), applied: true },
      },
    };
  }
  // an honest indexer one block before the award (probe29 C-F7): Ponder's /status, the bounty Funded, no
  // award, no credit; "lagging-caught-up" says it has read the award block, "lagging-no-status" has no /status
  if (mode.startsWith("lagging")) {
    if (path === "/status")
      return mode === "lagging-no-status"
        ? { status: 404, body: { error: { code: "no_route", message: "no route" } } }
        : {
            status: 200,
            body: {
              base: {
                id: 8453,
                block: { number: mode === "lagging" ? 4999 : 5000, timestamp: 1_700_000_000 },
              },
            },
          };
    if (path === `/bounties/${BOUNTY}`)
      return {
        status: 200,
        body: {
          bounty: {
            id: String(BOUNTY),
            status: "Funded",
            testSetRoot: benchmark.commit_root,
            pool: String(POOL),
            token: benchmark.token,
            author: benchmark.author,
            awarder: benchmark.awarder,
            leafCount: String(benchmark.leaf_count),
            closesAt: String(benchmark.closes_at),
            thresholdBps: 0,
            splitsBps: [10000],
          },
          winners: [],
          credits: [],
          claims: [],
          reclaim: null,
          anomalies: [],
        },
      };
    return {
      status: 200,
      body:
        path === "/awards" ? { items: [], nextCursor: null } : { credits: [], totals: [], nextCursor: null },
    };
  }
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

const indexerBase = useStubIndexer((url) => {
  requests.push(url.pathname + url.search);
  const [, mode] = url.pathname.split("/");
  return answer(mode!, url);
});

function walkOf(mode: string, winners = view.winners): IndexerWalk {
  const url = `${indexerBase()}/${mode}/`;
  return {
    view: { ...view, winners } as PackView,
    derived,
    chain: null,
    onProgress: undefined,
    target: `indexer ${indexerBase()}`,
    get: indexerGetter(url, 5_000, 1 << 20),
    notTheIndexer: (route, why) => notTheIndexer(url, route, why),
    claims: { credits: null, head: null, deferred: [], claimTxs: [] },
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
    const f = await verifyIndexer(view, derived, null, { indexerUrl: `${indexerBase()}/current/` });
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
    const f = await verifyIndexer(view, derived, null, { indexerUrl: `${indexerBase()}/token-lies/` });
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
    const f = await verifyIndexer(view, derived, null, { indexerUrl: `${indexerBase()}/other-bounty/` });
    expect(f.state).toBe("failed");
    expect(f.reasons).toContain(`GET /bounties/${BOUNTY}: bounty.id is 2, the pack says ${BOUNTY}`);
    expect(f.reasons).toContain(`GET /bounties/${BOUNTY}: winners[0].bountyId is 2, the pack says ${BOUNTY}`);
  });

  it("the bounty's credit records as the pack implies them: an extra account or another amount is a disagreement", async () => {
    const f = await verifyIndexer(view, derived, null, {
      indexerUrl: `${indexerBase()}/bounty-credits-lie/`,
    });
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
    const f = await verifyIndexer(view, derived, null, { indexerUrl: `${indexerBase()}/current/` });
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
    const f = await verifyIndexer(view, derived, null, { indexerUrl: `${indexerBase()}/old/` });
    expect(f.state).toBe("unverified");
    expect(f.reasons).toEqual([
      `GET /awards?winner=${WINNER}&bounty=${BOUNTY}: the indexer refuses the parameter bounty (http 400: an indexer older than this verifier, without the keyed read): ${WINNER}'s award history could not be checked`,
      `GET /accounts/${WINNER}/credits?bounty=${BOUNTY}: the indexer refuses the parameter bounty (http 400: an indexer older than this verifier, without the keyed read): ${WINNER}'s credits could not be checked`,
      "the rest agrees: the bounty, its award and 0 anchors (pack only: no --rpc)",
    ]);
    // nothing paged: one refused GET per list
    expect(requests.filter((r) => !r.includes("/bounties/") && !r.endsWith("/status"))).toHaveLength(2);
  });

  it("an older indexer that also disagrees: failed, the disagreement first, the unobserved parts listed", async () => {
    const f = await verifyIndexer(view, derived, null, { indexerUrl: `${indexerBase()}/old/?x=1` });
    expect(f.state).toBe("failed");
    expect(f.reasons[0]).toBe(`GET /bounties/${BOUNTY}: bounty.pool is 1, the pack says ${POOL}`);
    expect(f.reasons.slice(1).every((r) => r.includes("refuses the parameter bounty"))).toBe(true);
    expect(f.reasons).toHaveLength(3);
  });

  it("a refusal of a path parameter taken from the pack names the pack's field, not the URL (probe29 C-F3)", async () => {
    const f = await verifyIndexer(view, derived, null, { indexerUrl: `${indexerBase()}/refuses-address/` });
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
    const f = await verifyIndexer(view, derived, null, { indexerUrl: `${indexerBase()}/spaces/` });
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

describe("an honest indexer that has not read the award block yet (probe29 C-F7)", () => {
  it("its head below $.benchmark.award_block: unverified, naming the head and the block, not failed", async () => {
    const f = await verifyIndexer(view, derived, null, { indexerUrl: `${indexerBase()}/lagging/` });
    expect(f.state).toBe("unverified");
    expect(f.reasons[0]).toBe(
      `the indexer has indexed chain 8453 up to block 4999 (GET /status), the award is in block 5000 ($.benchmark.award_block): it has not read it yet, so its answers are not compared (11 differ from the pack, listed below)`,
    );
    expect(f.reasons[1]).toBe(`GET /bounties/${BOUNTY}: bounty.status is funded, the pack says awarded`);
    expect(isBehindThePack(f)).toBe(true); // serve's verifier retries it (probe39 C-F2)
  });

  it("the same answers from an indexer whose head is at the award block: failed", async () => {
    const f = await verifyIndexer(view, derived, null, { indexerUrl: `${indexerBase()}/lagging-caught-up/` });
    expect(f.state).toBe("failed");
    expect(isBehindThePack(f)).toBe(false);
    expect(f.reasons[0]).toBe(`GET /bounties/${BOUNTY}: bounty.status is funded, the pack says awarded`);
  });

  it("an indexer without /status (404): failed, as before", async () => {
    const f = await verifyIndexer(view, derived, null, { indexerUrl: `${indexerBase()}/lagging-no-status/` });
    expect(f.state).toBe("failed");
    expect(f.reasons[0]).toBe(`GET /bounties/${BOUNTY}: bounty.status is funded, the pack says awarded`);
  });
});

describe("an Awarded bounty's reclaim, and the claims against creditOf (probe29 C-F2 variants)", () => {
  const author = benchmark.author.toLowerCase();
  /** The chain as read: the Awarded log of the pack, and creditOf at block 6000 (WINNER's claimed or not). */
  function chain(winnerCredit: bigint, requested: string[][] = []): ChainObservation {
    return {
      chainId: 8453,
      awarded: {
        winners: [WINNER],
        amounts: [AMOUNT],
        authorRemainder: POOL - AMOUNT,
        rankingDigest: benchmark.ranking_digest,
        blockNumber: 5000n,
        txHash: benchmark.award_tx,
        logIndex: 3,
      },
      anchors: new Map(),
      bounty: null,
      readCredits: async (accounts) => {
        requested.push([...accounts]);
        return {
          block: 6000n,
          of: new Map([
            [WINNER, winnerCredit],
            [author, POOL - AMOUNT],
          ]),
        };
      },
    };
  }

  it("a reclaim on the indexer's Awarded bounty (its fields, its record) is a disagreement, with or without --rpc", async () => {
    const f = await verifyIndexer(view, derived, null, { indexerUrl: `${indexerBase()}/reclaimed-too/` });
    expect(f.state).toBe("failed");
    const route = `GET /bounties/${BOUNTY}`;
    expect(f.reasons).toEqual([
      `${route}: bounty.reclaimedBlock is 5013, the pack says null (an Awarded bounty has no reclaim)`,
      `${route}: bounty.reclaimedTx is 0x${"ab".repeat(32)}, the pack says null (an Awarded bounty has no reclaim)`,
      `${route}: bounty.reclaimedAmount is ${POOL}, the pack says null (an Awarded bounty has no reclaim)`,
      `${route}: bounty.reclaimedTo is ${author}, the pack says null (an Awarded bounty has no reclaim)`,
      `${route}: reclaim is a record, the pack says null (an Awarded bounty has no reclaim)`,
    ]);
  });

  it("claimed on chain (creditOf 0 at block 6000), outstanding at the indexer whose head is 6000: failed", async () => {
    const requested: string[][] = [];
    const f = await verifyIndexer(view, derived, chain(0n, requested), {
      indexerUrl: `${indexerBase()}/claims-6000-unclaimed/`,
    });
    expect(f.state).toBe("failed");
    const says = `creditOf(${BOUNTY}, ${WINNER}) at block 6000 says`;
    for (const reason of [
      `GET /bounties/${BOUNTY}: winners[0].outstanding is ${AMOUNT}, ${says} 0`,
      `GET /bounties/${BOUNTY}: winners[0].claimedAmount is 0, ${says} ${AMOUNT}`,
      `GET /bounties/${BOUNTY}: credits[0].outstanding is ${AMOUNT}, ${says} 0`,
      `GET /awards?winner=${WINNER}&bounty=${BOUNTY}: items[0].winners[0].outstanding is ${AMOUNT}, ${says} 0`,
      `GET /accounts/${WINNER}/credits?bounty=${BOUNTY}: credits[bounty ${BOUNTY}].outstanding is ${AMOUNT}, ${says} 0`,
      `GET /accounts/${WINNER}/credits?bounty=${BOUNTY}: credits[bounty ${BOUNTY}].claimed is 0, ${says} ${AMOUNT}`,
    ])
      expect(f.reasons).toContain(reason);
    // one read of the chain's credits: every account the pack credits, the author's remainder included
    expect(requested).toEqual([[WINNER, author]]);
  });

  it("the same indexer with its head before block 6000: unverified (the claim may be after its head)", async () => {
    const f = await verifyIndexer(view, derived, chain(0n), {
      indexerUrl: `${indexerBase()}/claims-5999-unclaimed/`,
    });
    expect(f.state).toBe("unverified");
    expect(f.reasons[0]).toBe(
      `GET /bounties/${BOUNTY}: winners[0].outstanding is ${AMOUNT}, creditOf(${BOUNTY}, ${WINNER}) is 0 at block 6000 and the indexer has indexed up to block 5999: a claim after its head is not a disagreement`,
    );
  });

  it("claimed at the indexer, outstanding on chain at block 6000, its head 6000: failed", async () => {
    const f = await verifyIndexer(view, derived, chain(AMOUNT), {
      indexerUrl: `${indexerBase()}/claims-6000-claimed/`,
    });
    expect(f.state).toBe("failed");
    expect(f.reasons).toContain(
      `GET /accounts/${WINNER}/credits?bounty=${BOUNTY}: credits[bounty ${BOUNTY}].outstanding is 0, creditOf(${BOUNTY}, ${WINNER}) at block 6000 says ${AMOUNT}`,
    );
  });

  it("claimed at the indexer whose head is past block 6000: unverified (a claim after block 6000)", async () => {
    const f = await verifyIndexer(view, derived, chain(AMOUNT), {
      indexerUrl: `${indexerBase()}/claims-6001-claimed/`,
    });
    expect(f.state).toBe("unverified");
  });

  it("the indexer's claims as creditOf says them: verified (claimed, and not claimed)", async () => {
    for (const [credit, mode] of [
      [0n, "claims-5999-claimed"],
      [AMOUNT, "claims-6000-unclaimed"],
      [AMOUNT, "claims-5000-unclaimed"],
    ] as const) {
      const f = await verifyIndexer(view, derived, chain(credit), {
        indexerUrl: `${indexerBase()}/${mode}/`,
      });
      expect([mode, f.state, f.reasons]).toEqual([
        mode,
        "verified",
        [expect.stringMatching(/^the indexer agrees/)],
      ]);
    }
  });
});
