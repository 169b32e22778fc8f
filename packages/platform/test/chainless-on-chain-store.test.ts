/**
 * probe26 A-F5: a run finalized (or a benchmark published) through a process without a chain on a store
 * that another process anchors for had its receipt hash (commit root) recorded `off_chain` and served by
 * every process; a stranger anchored it first with another kind and the prize could never be awarded.
 * Now every process on a store some process opened with a chain records its digests pending (withheld),
 * and a process with the chain (its batcher's sweep) anchors them.
 */
import { describe, expect, it } from "vitest";
import {
  chainClock,
  chainConfig,
  cities,
  lockPrize,
  promptAgent,
  rejection,
  CITIES_PUBLISH,
  freshStoreLocation,
  openAt,
  useDevChain,
  type Harness,
} from "./helpers.js";

const chain = useDevChain();

/**
 * Publishes and finalizes one run through `h` (a process without a chain); the rival's account is made
 * through `withChain` (the process with the chain), which gives its agent a withdrawal address: on a
 * store marked with a chain a run needs one in every process (probe30 A-F8), and only a process with
 * the chain may set it (probe29 C-F8).
 */
async function publishAndFinalize(h: Harness, withChain: Harness, tag: string) {
  const author = await h.real.authenticate((await h.real.createAccount({ name: `${tag}-author` })).api_key);
  const ds = await h.real.createDataset(author, cities(4, tag));
  const published = await h.real.publish(author, ds.dataset_id, { ...CITIES_PUBLISH, max_attempts: 2 });
  const rival = await withChain.principal(`${tag}-rival`);
  const run = await h.real.startRun(rival, published.slug, `${tag}-rival`);
  const done = await h.real.finalize(rival, run.run.id);
  return { published, done, rival, runId: run.run.id };
}

describe("a process without a chain on a store anchored on one (probe26 A-F5)", { timeout: 120_000 }, () => {
  it("withholds its commit root and receipt hash as pending, on every process, instead of off_chain", async () => {
    const at = await freshStoreLocation();
    // a process with a chain opens the store (it sends nothing here)
    const withChain = await openAt({ ...at, chain: chainConfig(chain(), 0) });
    const chainless = await openAt({ ...at });
    try {
      const { published, done, rival, runId } = await publishAndFinalize(chainless, withChain, "cl");
      expect(published.commitment_anchor_status).toBe("pending");
      expect(published.commit_root).toBeNull();
      expect(published.commitment_anchor_error).toMatch(/no chain/);
      expect(done.receipt_anchor_status).toBe("pending");
      expect(done.receipt_hash).toBeNull();
      expect(done.receipt_anchor_error).toMatch(/no chain/);
      // neither process serves the digests: nobody can anchor them first with another kind
      for (const h of [chainless, withChain]) {
        const row = (await h.real.leaderboard(published.slug)).rows.find((r) => r.agent_id === "cl-rival");
        expect(row?.receipt_hash ?? null).toBeNull();
        expect((await h.real.commitment(published.slug)).commit_root).toBeNull();
        expect((await h.real.getRun(rival, runId)).receipt_hash).toBeNull();
      }
      const stored = await chainless.storedReceiptHash(runId);
      expect((await chainless.ctx.store.anchors.pending(published.slug)).map((r) => r.digest)).toContain(
        stored,
      );
    } finally {
      await chainless.real.close();
      await withChain.real.close();
    }
  });

  it("a process with the chain anchors them within its sweep, then every process shows them", async () => {
    const at = await freshStoreLocation();
    const withChain = await openAt({
      ...at,
      chain: chainConfig(chain(), 0),
      anchorBatching: { flushMs: 100, sweepMs: 200 },
    });
    const chainless = await openAt({ ...at });
    try {
      const { published, rival, runId } = await publishAndFinalize(chainless, withChain, "sw");
      const stored = await chainless.storedReceiptHash(runId);
      const until = Date.now() + 60_000;
      while ((await chainless.real.getRun(rival, runId)).receipt_hash === null && Date.now() < until)
        await new Promise((r) => setTimeout(r, 200));
      expect((await chainless.real.getRun(rival, runId)).receipt_hash).toBe(stored);
      expect((await withChain.real.commitment(published.slug)).commit_root).toBe(
        await chainless.storedCommitRoot(published.slug),
      );
      expect(await withChain.ctx.store.anchors.evidence(stored)).not.toBeNull();
    } finally {
      await chainless.real.close();
      await withChain.real.close();
    }
  });
});

// probe29 C-F8: the CLI without --rpc-url on serve's store set a withdrawal address running BenchmarkBounty's
// code (the code rule needs the chain; serve and --rpc-url refused it)
describe(
  "a process without a chain on a store anchored on one: withdrawal addresses (probe29 C-F8)",
  { timeout: 120_000 },
  () => {
    it("refuses every address change no_chain naming --rpc-url, nothing written; a store never opened with a chain takes it", async () => {
      const address = "0x1234567890123456789012345678901234567891";
      const at = await freshStoreLocation();
      const withChain = await openAt({ ...at, chain: chainConfig(chain(), 0) });
      const chainless = await openAt({ ...at });
      try {
        const p = chainless.real;
        const alice = await p.authenticate((await p.createAccount({ name: "alice" })).api_key);
        await p.registerAgent(alice, "a0");
        const chainId = chain().chainId;
        for (const attempt of [
          () => p.registerAgent(alice, "a1", { withdrawal_address: address }),
          () => p.setWithdrawalAddress(alice, "a0", address),
          () => p.setAccountWithdrawalAddress(alice, address),
          () => p.createAccount({ name: "bob", agent: { withdrawal_address: address } }),
        ]) {
          const refused = await rejection(attempt());
          expect(refused).toMatchObject({
            code: "no_chain",
            details: {
              field: "withdrawal_address",
              path: "$.withdrawal_address",
              reason: "chain_marked",
              chain_id: chainId,
            },
          });
          expect(refused.message).toMatch(
            new RegExp(
              // probe36 V-F5: "so the code 0x... runs" said what it meant wrongly
              `^withdrawal_address: this store is used on chain ${chainId} .*so the code that ${address} runs cannot be checked: .*pass --rpc-url`,
            ),
          );
        }
        // nothing written: alice's one agent has no address, no account bob (the name is free)
        expect((await p.myAgents(alice)).map((a) => [a.agent_id, a.withdrawal_address ?? null])).toEqual([
          ["a0", null],
        ]);
        expect((await p.createAccount({ name: "bob" })).account.name).toBe("bob");
        // an agent without an address needs no chain; the process with the chain sets the address
        expect((await p.registerAgent(alice, "a2")).agent_id).toBe("a2");
        const viaChain = await withChain.real.authenticate(
          (await withChain.real.createAccount({ name: "carol" })).api_key,
        );
        expect(
          (await withChain.real.setAccountWithdrawalAddress(viaChain, address)).map(
            (a) => a.withdrawal_address,
          ),
        ).toEqual([address]);
      } finally {
        await chainless.close();
        await withChain.close();
      }
      // a store never opened with a chain: the address rule alone, as before
      const plain = await openAt({ ...(await freshStoreLocation()) });
      try {
        const dave = await plain.real.authenticate(
          (await plain.real.createAccount({ name: "dave" })).api_key,
        );
        expect(
          (await plain.real.setAccountWithdrawalAddress(dave, address)).map((a) => a.withdrawal_address),
        ).toEqual([address]);
      } finally {
        await plain.close();
      }
    });
  },
);

// probe30 A-F8: a chainless serve on a shared database started runs of agents without a withdrawal
// address (the chain process refused the same start); such a winner blocked the whole award
describe(
  "a process without a chain on a store anchored on one: run starts (probe30 A-F8)",
  { timeout: 120_000 },
  () => {
    it("refuses a start by an agent that can win and has no withdrawal address, as the chain process does; with one set through the chain process it starts", async () => {
      const at = await freshStoreLocation();
      const withChain = await openAt({ ...at, chain: chainConfig(chain(), 0) });
      const chainless = await openAt({ ...at });
      try {
        const p = chainless.real;
        const author = await p.authenticate((await p.createAccount({ name: "nf-author" })).api_key);
        const ds = await p.createDataset(author, cities(4, "nf"));
        const { slug } = await p.publish(author, ds.dataset_id, { ...CITIES_PUBLISH, max_attempts: 2 });
        const rival = await p.authenticate((await p.createAccount({ name: "nf-rival" })).api_key);
        for (const h of [chainless, withChain]) {
          const refused = await rejection(h.real.startRun(rival, slug, "nf-rival"));
          expect(refused).toMatchObject({
            code: "withdrawal_address_required",
            details: { field: "withdrawal_address", agent_id: "nf-rival" },
          });
        }
        expect((await p.myRuns(rival)).runs).toEqual([]); // nothing started
        // the author's own agent needs none (it takes no money), on the chainless process too
        expect((await p.startRun(author, slug, "nf-author")).run.id).toMatch(/^run-/);
        await withChain.real.setAccountWithdrawalAddress(rival, "0x1234567890123456789012345678901234567891");
        expect((await p.startRun(rival, slug, "nf-rival")).run.id).toMatch(/^run-/);
      } finally {
        await chainless.real.close();
        await withChain.real.close();
      }
    });
  },
);

// probe36 A-F4: a chainless process on a chain store judged a bounty's close by its wall clock alone: after
// the on-chain close it still started a run and took its answers (gold derived from the per-task credits a
// process with the chain already served), and the award ranked that late run first
describe(
  "a process without a chain on a store anchored on one: the close of a bounty (probe36 A-F4)",
  { timeout: 180_000 },
  () => {
    it("refuses starts, answers and finalizes no_chain while the close is the chain's; counts it closed once a chain process saw the chain pass closes_at", async () => {
      const dc = chain();
      const at = await freshStoreLocation();
      const { now: chainNow, clock } = await chainClock(dc);
      const withChain = await openAt({ ...at, clock: clock.now, chain: chainConfig(dc, 0) });
      const chainless = await openAt({ ...at, clock: clock.now });
      try {
        const ds = await withChain.createDataset(cities(6, "cc"));
        const { slug } = await withChain.publish(ds.dataset_id, CITIES_PUBLISH);
        const { closesAt } = await lockPrize(withChain, dc, slug, chainNow, {
          pool: 2_000_000n,
          author: 7,
          payoutRule: "winner_take_all",
          closesIn: 600,
        });
        const early = await withChain.startRun(slug, "cc-early");
        const answer = [
          { ordinal: early.tasks[0]!.ordinal, answer_text: promptAgent(early.tasks[0]!.prompt) },
        ];
        const late = await withChain.principal("cc-late");
        const refusedWhileOpen = [
          () => chainless.real.startRun(late, slug, "cc-late"),
          () => chainless.submit(early.run.id, answer),
          () => chainless.finalize(early.run.id),
        ];
        for (const attempt of refusedWhileOpen) {
          const refused = await rejection(attempt());
          expect(refused).toMatchObject({
            code: "no_chain",
            details: { slug, closes_at: closesAt, chain_id: dc.chainId, reason: "chain_clock_unknown" },
          });
          // the competitor's next step, not the operator's (m36's note: it said "serve --rpc-url")
          expect(refused.message).toMatch(
            /the service's main address \(a serve with the chain on this store\) takes them/,
          );
        }
        expect(await chainless.listRuns(slug, "cc-late")).toEqual([]);
        expect((await chainless.runAnswers(early.run.id)).size).toBe(0);
        expect((await chainless.getRun(early.run.id)).status).toBe("in_progress");
        // open by both processes: the private credits withheld
        expect((await chainless.real.benchmarkDetail(slug)).open).toBe(true);
        // its walk sends the refused steps (the address, the run) to the main address (probe36 V-F5)
        const how = (await chainless.real.benchmarkDetail(slug)).how_to_compete;
        expect(how).toMatch(
          /^0\. .*takes no run, answer or finalize of this prize benchmark \(503 no_chain\)/,
        );
        expect(how).toContain(`curl -s -X POST $MAIN/api/v1/benchmarks/${slug}/runs `);
        // the same rule as a fact the web page reads (probe37 A-F1)
        expect((await chainless.real.benchmarkDetail(slug)).compete_at_main).toMatchObject({
          withdrawal_address: true,
          runs: true,
        });
        expect((await rejection(chainless.real.taskScores(null, slug))).code).toBe("task_scores_withheld");

        await dc.increaseTime(700); // the chain's clock past closes_at; both wall clocks stay before it
        clock.advance(6_000); // past the shared chain reads' 5 s
        expect(clock.now()).toBeLessThan(closesAt * 1000);
        // the chainless process counts it open until a process with the chain saw the close ...
        expect((await chainless.real.benchmarkDetail(slug)).open).toBe(true);
        expect((await withChain.real.benchmarkDetail(slug)).open).toBe(false);
        // ... then closed, as that process: the credits revealed, a start refused as closed by the chain
        expect((await chainless.real.benchmarkDetail(slug)).open).toBe(false);
        expect((await chainless.real.taskScores(null, slug)).open).toBe(false);
        const closed = await rejection(chainless.real.startRun(late, slug, "cc-late"));
        expect(closed).toMatchObject({ code: "benchmark_closed", details: { closed_by: "chain_clock" } });
        expect(await chainless.listRuns(slug, "cc-late")).toEqual([]);
        const answerLate = await rejection(chainless.submit(early.run.id, answer));
        expect(answerLate).toMatchObject({ code: "benchmark_closed", details: { closed_by: "chain_clock" } });
        // a finalize after the close grades what was answered before it (nothing here)
        expect((await chainless.finalize(early.run.id)).counts.answered).toBe(0);
      } finally {
        await chainless.real.close();
        await withChain.real.close();
      }
    });
  },
);

// probe36 A-F3, A-F6: a chainless process on a chain store served `awarder: null` (a lock from that answer
// took the author's wallet as awarder, a pool the service could never attach) and nothing saying runs need
// a withdrawal address (run-benchmark.sh registered an account, then the start was refused)
describe(
  "a process without a chain on a store anchored on one: the awarder and the address rule it serves (probe36 A-F3, A-F6)",
  { timeout: 120_000 },
  () => {
    it("serves the awarder a process with the chain recorded, and withdrawal_address_required as the start applies it", async () => {
      const at = await freshStoreLocation();
      const withChain = await openAt({ ...at, chain: chainConfig(chain(), 0), recordServiceAwarder: true });
      const chainless = await openAt({ ...at });
      try {
        const ds = await withChain.createDataset(cities(4, "aw"));
        const { slug } = await withChain.publish(ds.dataset_id, CITIES_PUBLISH);
        const service = chain().accounts[0]!.address.toLowerCase();
        for (const h of [withChain, chainless]) {
          expect((await h.real.commitment(slug)).awarder).toBe(service);
          const detail = await h.real.benchmarkDetail(slug);
          expect(detail.commitment.awarder).toBe(service);
          expect(detail.withdrawal_address_required).toBe(true);
        }
      } finally {
        await chainless.real.close();
        await withChain.real.close();
      }
      // a store never used on a chain: no awarder, no address needed
      const plain = await openAt({ ...(await freshStoreLocation()) });
      try {
        const ds = await plain.createDataset(cities(4, "aw2"));
        const { slug } = await plain.publish(ds.dataset_id, CITIES_PUBLISH);
        const detail = await plain.real.benchmarkDetail(slug);
        expect(detail.commitment.awarder).toBeNull();
        expect(detail.withdrawal_address_required).toBe(false);
      } finally {
        await plain.real.close();
      }
    });

    // probe36 V-F5: the walk a chainless process of a chain store printed was refused at step 2 (503
    // no_chain) and then at step 4 (withdrawal_address_required): it now sends the address to $MAIN
    it("how_to_compete sends the withdrawal address to the service's main address ($MAIN); a plain store's walk is as before", async () => {
      const at = await freshStoreLocation();
      const withChain = await openAt({ ...at, chain: chainConfig(chain(), 0), recordServiceAwarder: true });
      const chainless = await openAt({ ...at, publicBaseUrl: "http://chainless.example" });
      try {
        const ds = await withChain.createDataset(cities(4, "vf5"));
        const { slug } = await withChain.publish(ds.dataset_id, CITIES_PUBLISH);
        const how = (await chainless.real.benchmarkDetail(slug)).how_to_compete;
        const lines = how.split("\n");
        expect(lines[0]).toBe(
          "0. This server runs without the service's chain, so it cannot set a withdrawal address (503 no_chain): the steps naming $MAIN go to the service's main address instead: set the shell variable MAIN to that address first (its operator gives it; your key works there too)",
        );
        expect(how).toContain("curl -s -X PUT $MAIN/api/v1/accounts/me/withdrawal-address ");
        expect(how).not.toContain("http://chainless.example/api/v1/accounts/me/withdrawal-address");
        // no prize: the run is taken here once the address is set there
        expect(how).toContain(`curl -s -X POST http://chainless.example/api/v1/benchmarks/${slug}/runs `);
        // the process with the chain prints the walk as before
        const own = (await withChain.real.benchmarkDetail(slug)).how_to_compete;
        expect(own).not.toContain("$MAIN");
        // the same rule as a fact the web page reads (probe37 A-F1)
        expect((await chainless.real.benchmarkDetail(slug)).compete_at_main).toMatchObject({
          withdrawal_address: true,
          runs: false,
        });
        expect((await withChain.real.benchmarkDetail(slug)).compete_at_main).toBeNull();
        expect(own.split("\n")[0]).toMatch(/^1\. Get a key/);
      } finally {
        await chainless.real.close();
        await withChain.real.close();
      }
    });

    // probe36 V-F6: `account create --rpc-url` with another key rewrote the recorded awarder, and the
    // chainless processes then served a key no serve held (a pool locked from that answer could not be
    // attached by the running serve)
    it("only a serve-like open (recordServiceAwarder) records the awarder: a CLI-like open with another key changes nothing", async () => {
      const at = await freshStoreLocation();
      const serve0 = await openAt({ ...at, chain: chainConfig(chain(), 0), recordServiceAwarder: true });
      const chainless = await openAt({ ...at });
      const key0 = chain().accounts[0]!.address.toLowerCase();
      const key1 = chain().accounts[1]!.address.toLowerCase();
      let slug: string;
      try {
        const ds = await serve0.createDataset(cities(4, "vf6"));
        slug = (await serve0.publish(ds.dataset_id, CITIES_PUBLISH)).slug;
        expect((await chainless.real.benchmarkDetail(slug)).commitment.awarder).toBe(key0);
        // `account create`, `agent`, `publish`... with the chain and another key, the serve still running
        const cli = await openAt({ ...at, chain: chainConfig(chain(), 1) });
        await cli.real.close();
        expect((await chainless.real.benchmarkDetail(slug)).commitment.awarder).toBe(key0);
      } finally {
        await serve0.real.close();
      }
      // a serve restarted with another key awards with that one: it is recorded
      const serve1 = await openAt({ ...at, chain: chainConfig(chain(), 1), recordServiceAwarder: true });
      try {
        expect((await chainless.real.benchmarkDetail(slug)).commitment.awarder).toBe(key1);
      } finally {
        await serve1.real.close();
        await chainless.real.close();
      }
    });
  },
);
