/**
 * Reads the chain's own state through viem (views at one block, and the
 * contracts' logs) and checks every REST, GraphQL and SQL answer of a running
 * indexer against it. The expected values come from the chain only, never from
 * the indexer's code.
 */
import { createClient } from "@ponder/client";
import {
  anchorRegistryAbi,
  benchmarkBountyAbi,
  bountyStatusName,
  type BountyRecord,
} from "@bench-bounty/contracts";
import type { DevChain } from "@bench-bounty/devchain";
import { keccak256, stringToHex, type Address, type Hex } from "viem";
import { expect } from "vitest";
import * as schema from "../../ponder.schema";

/** Kind names of SPEC 1.2, computed here from their definition. */
const KIND_NAMES = new Map<string, string>(
  ["commitment", "receipt", "pack", "compute-receipt"].map((n) => [
    keccak256(stringToHex(`bench-bounty.anchor.${n}`)),
    n,
  ]),
);

type Json = Record<string, unknown>;

/** GET a path of the indexer; returns the status and parsed JSON body. */
export async function getJson(url: string, path: string): Promise<{ status: number; body: Json }> {
  const res = await fetch(url + path);
  const text = await res.text();
  let body: Json;
  try {
    body = JSON.parse(text) as Json;
  } catch {
    throw new Error(`GET ${path}: ${res.status}, not JSON: ${text.slice(0, 200)}`);
  }
  return { status: res.status, body };
}

/** POST a GraphQL query; throws on GraphQL errors. */
export async function graphql(url: string, query: string): Promise<Json> {
  const res = await fetch(`${url}/graphql`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ query }),
  });
  const body = (await res.json()) as { data?: Json; errors?: unknown };
  if (body.errors !== undefined || body.data === undefined)
    throw new Error(`GraphQL: ${JSON.stringify(body.errors)}`);
  return body.data;
}

const lc = (a: string) => a.toLowerCase();
const s = (v: bigint | number) => String(v);

interface LogBase {
  blockNumber: bigint;
  logIndex: number;
  transactionHash: Hex;
}
interface AwardedLog extends LogBase {
  bountyId: bigint;
  testSetRoot: Hex;
  winners: readonly Address[];
  amounts: readonly bigint[];
  authorRemainder: bigint;
  rankingDigest: Hex;
}
interface ClaimedLog extends LogBase {
  bountyId: bigint;
  account: Address;
  to: Address;
  amount: bigint;
}

/** Everything the comparison needs, read from the chain at `head`. */
export interface ChainState {
  head: bigint;
  /** `getBounty(id)` for every id, with the status as its name (`"Funded"`), as the indexer stores it. */
  bounties: (Omit<BountyRecord, "status"> & { id: bigint; status: ReturnType<typeof bountyStatusName> })[];

  created: Map<bigint, LogBase>;
  funded: Map<bigint, LogBase & { funder: Address; amount: bigint }>;
  awarded: AwardedLog[];
  claimed: ClaimedLog[];
  reclaimed: Map<bigint, LogBase & { author: Address; to: Address; amount: bigint }>;
  anchored: (LogBase & { digest: Hex; kind: Hex; anchorer: Address })[];
  anchorOf: Map<string, { anchorer: Address; blockNumber: bigint; timestamp: bigint; kind: Hex }>;
  /** `creditOf(bountyId, account)` for every winner and author of an award, key `${id}:${account}` lowercase. */
  credits: Map<string, bigint>;
  blockTime: Map<bigint, bigint>;
}

/** Reads the chain state (views at the current head, logs from the start block). */
export async function readChain(dc: DevChain): Promise<ChainState> {
  const pc = dc.publicClient;
  const head = await pc.getBlockNumber();
  const bountyAddr = dc.contracts.benchmarkBounty;
  const count = await pc.readContract({
    address: bountyAddr,
    abi: benchmarkBountyAbi,
    functionName: "bountyCount",
    blockNumber: head,
  });
  const bounties: ChainState["bounties"] = [];
  for (let id = 1n; id <= count; id++) {
    const b = await pc.readContract({
      address: bountyAddr,
      abi: benchmarkBountyAbi,
      functionName: "getBounty",
      args: [id],
      blockNumber: head,
    });
    bounties.push({ ...b, id, status: bountyStatusName(b.status) });
  }
  const range = { fromBlock: BigInt(dc.startBlock), toBlock: head };
  const events = await pc.getContractEvents({ address: bountyAddr, abi: benchmarkBountyAbi, ...range });
  const base = (l: { blockNumber: bigint; logIndex: number; transactionHash: Hex }): LogBase => ({
    blockNumber: l.blockNumber,
    logIndex: l.logIndex,
    transactionHash: l.transactionHash,
  });
  const st: ChainState = {
    head,
    bounties,
    created: new Map(),
    funded: new Map(),
    awarded: [],
    claimed: [],
    reclaimed: new Map(),
    anchored: [],
    anchorOf: new Map(),
    credits: new Map(),
    blockTime: new Map(),
  };
  for (const e of events) {
    if (e.eventName === "BountyCreated") st.created.set(e.args.bountyId!, base(e));
    else if (e.eventName === "BountyFunded")
      st.funded.set(e.args.bountyId!, { ...base(e), funder: e.args.funder!, amount: e.args.amount! });
    else if (e.eventName === "Awarded") {
      const a = e.args as Omit<AwardedLog, keyof LogBase>;
      st.awarded.push({ ...base(e), ...a });
    } else if (e.eventName === "Claimed") {
      const a = e.args as Omit<ClaimedLog, keyof LogBase>;
      st.claimed.push({ ...base(e), ...a });
    } else if (e.eventName === "Reclaimed") {
      st.reclaimed.set(e.args.bountyId!, {
        ...base(e),
        author: e.args.author!,
        to: e.args.to!,
        amount: e.args.amount!,
      });
    }
  }
  const anchors = await pc.getContractEvents({
    address: dc.contracts.anchorRegistry,
    abi: anchorRegistryAbi,
    eventName: "Anchored",
    ...range,
  });
  for (const e of anchors) {
    st.anchored.push({ ...base(e), digest: e.args.digest!, kind: e.args.kind!, anchorer: e.args.anchorer! });
    const [anchorer, blockNumber, timestamp, kind] = await pc.readContract({
      address: dc.contracts.anchorRegistry,
      abi: anchorRegistryAbi,
      functionName: "anchorOf",
      args: [e.args.digest!],
      blockNumber: head,
    });
    st.anchorOf.set(lc(e.args.digest!), { anchorer, blockNumber, timestamp, kind });
  }
  for (const a of st.awarded) {
    const author = bounties.find((b) => b.id === a.bountyId)!.author;
    for (const acct of new Set([...a.winners, author].map(lc))) {
      const c = await pc.readContract({
        address: bountyAddr,
        abi: benchmarkBountyAbi,
        functionName: "creditOf",
        args: [a.bountyId, acct as Address],
        blockNumber: head,
      });
      st.credits.set(`${a.bountyId}:${acct}`, c);
    }
    st.blockTime.set(a.blockNumber, (await pc.getBlock({ blockNumber: a.blockNumber })).timestamp);
  }
  return st;
}

/** Walks every page of a list route (`limit` given) and returns all items. */
async function allPages(url: string, path: string, limit: number): Promise<Json[]> {
  const items: Json[] = [];
  let cursor: string | null = null;
  for (let i = 0; i < 1000; i++) {
    const sep = path.includes("?") ? "&" : "?";
    const { status, body } = await getJson(
      url,
      `${path}${sep}limit=${limit}${cursor === null ? "" : `&cursor=${cursor}`}`,
    );
    expect(status, `${path} page ${i}`).toBe(200);
    const page = body.items as Json[];
    expect(page.length).toBeLessThanOrEqual(limit);
    items.push(...page);
    cursor = body.nextCursor as string | null;
    if (cursor === null) return items;
  }
  throw new Error(`${path}: more than 1000 pages`);
}

/**
 * Checks every API answer against the chain. Returns the chain state it read.
 * @param accounts - addresses whose `/accounts/:address/credits` are checked.
 */
export async function expectIndexerMatchesChain(
  url: string,
  dc: DevChain,
  accounts: Address[],
): Promise<ChainState> {
  const st = await readChain(dc);
  const byId = new Map(st.bounties.map((b) => [b.id, b]));

  // ---- GET /bounties: every bounty, newest id first, every field as on chain.
  const { status, body } = await getJson(url, "/bounties?limit=500");
  expect(status).toBe(200);
  const items = body.items as Json[];
  expect(items.map((i) => i.id)).toEqual(st.bounties.map((b) => s(b.id)).reverse());
  expect(body.nextCursor).toBeNull();
  for (const item of items) {
    const b = byId.get(BigInt(item.id as string))!;
    const created = st.created.get(b.id)!;
    const funded = st.funded.get(b.id);
    const awarded = st.awarded.find((a) => a.bountyId === b.id);
    const reclaimed = st.reclaimed.get(b.id);
    const claimedSum = st.claimed.filter((c) => c.bountyId === b.id).reduce((x, c) => x + c.amount, 0n);
    expect(item, `bounty ${b.id}`).toMatchObject({
      author: lc(b.author),
      awarder: lc(b.awarder),
      token: lc(b.token),
      pool: s(b.pool),
      testSetRoot: lc(b.testSetRoot),
      leafCount: b.leafCount,
      closesAt: s(b.closesAt),
      awardDeadline: s(b.awardDeadline),
      thresholdBps: b.thresholdBps,
      splitsBps: [...b.splitsBps],
      status: b.status,
      createdTx: created.transactionHash,
      createdBlock: s(created.blockNumber),
      fundedTx: funded?.transactionHash ?? null,
      fundedAmount: funded === undefined ? null : s(funded.amount),
      fundedBy: funded === undefined ? null : lc(funded.funder),
      awardedTx: awarded?.transactionHash ?? null,
      awardedBlock: awarded === undefined ? null : s(awarded.blockNumber),
      rankingDigest: awarded === undefined ? null : lc(awarded.rankingDigest),
      authorRemainder: awarded === undefined ? null : s(awarded.authorRemainder),
      winnerCount: awarded === undefined ? null : awarded.winners.length,
      reclaimedTx: reclaimed?.transactionHash ?? null,
      reclaimedAmount: reclaimed === undefined ? null : s(reclaimed.amount),
      reclaimedTo: reclaimed === undefined ? null : reclaimed.to.toLowerCase(),
      claimedTotal: s(claimedSum),
    });
  }

  // ---- Filters and pagination of /bounties.
  for (const name of ["Pending", "Funded", "Awarded", "Reclaimed"]) {
    const got = await allPages(url, `/bounties?status=${name.toLowerCase()}`, 2);
    const want = st.bounties
      .filter((b) => b.status === name)
      .map((b) => s(b.id))
      .reverse();
    expect(
      got.map((i) => i.id),
      `status=${name}`,
    ).toEqual(want);
  }
  for (const author of new Set(st.bounties.map((b) => b.author))) {
    const got = await allPages(url, `/bounties?author=${author}`, 3);
    expect(got.map((i) => i.id)).toEqual(
      st.bounties
        .filter((b) => b.author === author)
        .map((b) => s(b.id))
        .reverse(),
    );
  }
  const tokenItems = await allPages(url, `/bounties?token=${dc.contracts.usdc}&status=Awarded`, 500);
  expect(tokenItems.length).toBe(st.bounties.filter((b) => b.status === "Awarded").length);
  expect((await getJson(url, `/bounties?token=0x${"ab".repeat(20)}`)).body.items).toEqual([]);
  expect((await allPages(url, "/bounties", 3)).map((i) => i.id)).toEqual(items.map((i) => i.id));

  // ---- GET /bounties/:id: winners, credits, claims, reclaim.
  for (const b of st.bounties) {
    const { status: code, body: d } = await getJson(url, `/bounties/${b.id}`);
    expect(code).toBe(200);
    expect((d.bounty as Json).status).toBe(b.status);
    expect(d.anomalies).toEqual([]);
    const awarded = st.awarded.find((a) => a.bountyId === b.id);
    const winners = d.winners as Json[];
    expect(winners.length).toBe(awarded?.winners.length ?? 0);
    awarded?.winners.forEach((w, i) => {
      const outstanding = st.credits.get(`${b.id}:${lc(w)}`)!;
      expect(winners[i], `bounty ${b.id} place ${i + 1}`).toMatchObject({
        place: i + 1,
        account: lc(w),
        amount: s(awarded.amounts[i]!),
        claimedAmount: outstanding === 0n ? s(awarded.amounts[i]!) : "0",
        outstanding: outstanding === 0n ? "0" : s(awarded.amounts[i]!),
      });
    });
    const credits = d.credits as Json[];
    if (awarded === undefined) expect(credits).toEqual([]);
    else {
      const want = new Map<string, bigint>();
      awarded.winners.forEach((w, i) => want.set(lc(w), (want.get(lc(w)) ?? 0n) + awarded.amounts[i]!));
      if (awarded.authorRemainder > 0n)
        want.set(lc(b.author), (want.get(lc(b.author)) ?? 0n) + awarded.authorRemainder);
      expect(credits.map((c) => c.account).sort()).toEqual([...want.keys()].sort());
      for (const c of credits) {
        const acct = c.account as string;
        const claimed = st.claimed
          .filter((x) => x.bountyId === b.id && lc(x.account) === acct)
          .reduce((x, y) => x + y.amount, 0n);
        expect(c, `credit ${b.id}/${acct}`).toMatchObject({
          credited: s(want.get(acct)!),
          claimed: s(claimed),
          outstanding: s(st.credits.get(`${b.id}:${acct}`)!),
        });
      }
    }
    const claims = st.claimed.filter((c) => c.bountyId === b.id);
    expect(
      (d.claims as Json[]).map((c) => [c.account, c.to, c.amount, c.txHash, c.blockNumber, c.applied]),
      `claims of ${b.id}`,
    ).toEqual(
      claims.map((c) => [lc(c.account), lc(c.to), s(c.amount), c.transactionHash, s(c.blockNumber), true]),
    );
    const r = st.reclaimed.get(b.id);
    expect(
      d.reclaim === null
        ? null
        : [(d.reclaim as Json).amount, (d.reclaim as Json).to, (d.reclaim as Json).txHash],
    ).toEqual(r === undefined ? null : [s(r.amount), lc(r.to), r.transactionHash]);
  }
  expect((await getJson(url, `/bounties/${st.bounties.length + 1}`)).status).toBe(404);

  // ---- GET /accounts/:address/credits.
  for (const account of accounts) {
    const a = lc(account);
    const { status: code, body: d } = await getJson(url, `/accounts/${account}/credits?limit=500`);
    expect(code).toBe(200);
    // A credit row exists where the award credited something: places won, or the author's remainder.
    const creditedBounties = new Set(
      st.awarded
        .filter(
          (aw) =>
            aw.winners.map(lc).includes(a) ||
            (aw.authorRemainder > 0n && lc(byId.get(aw.bountyId)!.author) === a),
        )
        .map((aw) => `${aw.bountyId}:${a}`),
    );
    const wantCredits = [...st.credits.entries()]
      .filter(([k]) => creditedBounties.has(k))
      .map(([k, outstanding]) => ({ bountyId: k.split(":")[0]!, outstanding: s(outstanding) }))
      .sort((x, y) => (BigInt(y.bountyId) > BigInt(x.bountyId) ? 1 : -1));
    expect(
      (d.credits as Json[]).map((c) => ({ bountyId: c.bountyId, outstanding: c.outstanding })),
      `credits of ${a}`,
    ).toEqual(wantCredits);
    let credited = 0n;
    let places = 0;
    for (const aw of st.awarded) {
      aw.winners.forEach((w, i) => {
        if (lc(w) === a) {
          credited += aw.amounts[i]!;
          places++;
        }
      });
      if (lc(byId.get(aw.bountyId)!.author) === a) credited += aw.authorRemainder;
    }
    // ?bounty= (a keyed read, probe27 C-F8): exactly that bounty's credit row of the list, or none, and
    // the same totals; for every bounty, credited or not
    for (const b of st.bounties) {
      const keyed = await getJson(url, `/accounts/${account}/credits?bounty=${b.id}`);
      expect(keyed.status, `credits of ${a} on bounty ${b.id}`).toBe(200);
      expect(keyed.body, `credits of ${a} on bounty ${b.id}`).toEqual({
        account: a,
        totals: d.totals,
        credits: (d.credits as Json[]).filter((c) => c.bountyId === s(b.id)),
        nextCursor: null,
      });
    }
    const claimed = st.claimed.filter((c) => lc(c.account) === a).reduce((x, c) => x + c.amount, 0n);
    const received = st.claimed.filter((c) => lc(c.to) === a).reduce((x, c) => x + c.amount, 0n);
    const outstanding = wantCredits.reduce((x, c) => x + BigInt(c.outstanding), 0n);
    const authored = st.bounties.filter((b) => lc(b.author) === a).length;
    const totals = d.totals as Json[];
    if (credited === 0n && received === 0n && authored === 0) expect(totals).toEqual([]);
    else {
      expect(totals, `totals of ${a}`).toEqual([
        expect.objectContaining({
          token: lc(dc.contracts.usdc),
          credited: s(credited),
          claimed: s(claimed),
          outstanding: s(outstanding),
          received: s(received),
          placesWon: places,
          bountiesAuthored: authored,
        }),
      ]);
    }
  }

  // ---- GET /anchors/:digest.
  for (const e of st.anchored) {
    const { status: code, body: d } = await getJson(url, `/anchors/${e.digest}`);
    expect(code).toBe(200);
    const on = st.anchorOf.get(lc(e.digest))!;
    expect(d, `anchor ${e.digest}`).toMatchObject({
      digest: lc(e.digest),
      kind: lc(on.kind),
      kindName: KIND_NAMES.get(lc(on.kind)) ?? "unknown",
      anchorer: lc(on.anchorer),
      blockNumber: s(on.blockNumber),
      timestamp: s(on.timestamp),
      txHash: e.transactionHash,
    });
  }
  const unanchored = keccak256(stringToHex("never anchored"));
  expect((await getJson(url, `/anchors/${unanchored}`)).status).toBe(404);

  // ---- GET /awards: newest first, winners, filters, pagination.
  const newestFirst = [...st.awarded].sort((x, y) =>
    x.blockNumber === y.blockNumber ? y.logIndex - x.logIndex : x.blockNumber > y.blockNumber ? -1 : 1,
  );
  const awards = await allPages(url, "/awards", 2);
  expect(awards.map((a) => a.bountyId)).toEqual(newestFirst.map((a) => s(a.bountyId)));
  awards.forEach((a, i) => {
    const log = newestFirst[i]!;
    expect(a).toMatchObject({
      rankingDigest: lc(log.rankingDigest),
      testSetRoot: lc(log.testSetRoot),
      authorRemainder: s(log.authorRemainder),
      awardedTx: log.transactionHash,
      awardedAt: s(st.blockTime.get(log.blockNumber)!),
    });
    expect((a.winners as Json[]).map((w) => [w.place, w.account, w.amount])).toEqual(
      log.winners.map((w, j) => [j + 1, lc(w), s(log.amounts[j]!)]),
    );
  });
  for (const w of new Set(st.awarded.flatMap((a) => a.winners.map(lc)))) {
    const got = await allPages(url, `/awards?winner=${w}`, 500);
    expect(
      got.map((a) => a.bountyId),
      `awards won by ${w}`,
    ).toEqual(newestFirst.filter((a) => a.winners.map(lc).includes(w)).map((a) => s(a.bountyId)));
  }
  // ?bounty= (a keyed read, probe27 C-F8): with or without a winner, exactly that bounty's item of the
  // history (the same object), or none when it was not awarded or the winner holds no place in it
  const winnersAndOthers = [
    ...new Set([...st.awarded.flatMap((aw) => aw.winners.map(lc)), ...accounts.map(lc)]),
  ];
  for (const b of st.bounties) {
    const item = awards.filter((aw) => aw.bountyId === s(b.id));
    const alone = await getJson(url, `/awards?bounty=${b.id}`);
    expect(alone.status, `award of bounty ${b.id}`).toBe(200);
    expect(alone.body, `award of bounty ${b.id}`).toEqual({ items: item, nextCursor: null });
    for (const w of winnersAndOthers) {
      const won = item.filter((aw) => (aw.winners as Json[]).some((x) => x.account === w));
      const keyed = await getJson(url, `/awards?winner=${w}&bounty=${b.id}`);
      expect(keyed.status, `award of bounty ${b.id} to ${w}`).toBe(200);
      expect(keyed.body, `award of bounty ${b.id} to ${w}`).toEqual({ items: won, nextCursor: null });
    }
  }
  if (newestFirst.length >= 2) {
    const t = st.blockTime.get(newestFirst[Math.floor(newestFirst.length / 2)]!.blockNumber)!;
    const after = await allPages(url, `/awards?from=${t}`, 500);
    expect(after.map((a) => a.bountyId)).toEqual(
      newestFirst.filter((a) => st.blockTime.get(a.blockNumber)! >= t).map((a) => s(a.bountyId)),
    );
    const iso = new Date(Number(t) * 1000).toISOString().replace(".000Z", "Z");
    const before = await allPages(url, `/awards?to=${iso}`, 500);
    expect(before.map((a) => a.bountyId)).toEqual(
      newestFirst.filter((a) => st.blockTime.get(a.blockNumber)! <= t).map((a) => s(a.bountyId)),
    );
  }

  // ---- GraphQL (Ponder's own).
  const gq = await graphql(
    url,
    `
      {
        bountyRecords(limit: 1000, orderBy: "id", orderDirection: "asc") {
          items {
            id
            status
            pool
            author
            winners {
              items {
                place
                account
                amount
              }
            }
          }
        }
        anchors(limit: 1000) {
          totalCount
        }
      }
    `,
  );
  const gItems = (gq.bountyRecords as { items: Json[] }).items;
  expect(gItems.map((i) => [i.id, i.status, i.pool, i.author])).toEqual(
    st.bounties.map((b) => [s(b.id), b.status, s(b.pool), lc(b.author)]),
  );
  for (const a of st.awarded) {
    const g = gItems.find((i) => i.id === s(a.bountyId))!;
    const ws = ((g.winners as { items: Json[] }).items ?? []).sort(
      (x, y) => (x.place as number) - (y.place as number),
    );
    expect(ws.map((w) => [w.place, w.account, w.amount])).toEqual(
      a.winners.map((w, j) => [j + 1, lc(w), s(a.amounts[j]!)]),
    );
  }
  expect((gq.anchors as Json).totalCount).toBe(st.anchored.length);

  // ---- SQL over HTTP (@ponder/client).
  const sqlClient = createClient(`${url}/sql`, { schema });
  const claimRows = await sqlClient.db.select().from(schema.claim);
  expect(claimRows.length).toBe(st.claimed.length);
  expect(claimRows.map((c) => c.amount).reduce((x, y) => x + y, 0n)).toBe(
    st.claimed.reduce((x, c) => x + c.amount, 0n),
  );
  const winnerRows = await sqlClient.db.select().from(schema.awardWinner);
  expect(winnerRows.length).toBe(st.awarded.reduce((n, a) => n + a.winners.length, 0));
  const anomalies = await sqlClient.db.select().from(schema.anomalyRecord);
  expect(anomalies).toEqual([]);

  return st;
}
