/**
 * The pages in a real browser (Debian's Chromium through playwright-core) against the built app
 * and the fixture API: numbers in the tables, the pack download byte for byte, each fact label
 * with its own state (a failed one on the tampered pack), the filters, and no console error.
 * Skipped, with a message, when /usr/bin/chromium is absent.
 */
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { BrowserContext, Page } from "playwright-core";
import { CHROMIUM, hasChromium, launch } from "./browser.js";
import { VECTORS, buildFixture, type Fixture } from "./fixtures/data.js";
import { startFixtureServer, type FixtureServer } from "./fixtures/server.js";
import { formatInterval, wilsonInterval } from "../src/domain/wilson.js";
import type { TaskScores } from "../src/api/task-scores.js";
import { rankAccuracy, scorePublic } from "../../evidence/dist/index.js";

if (!hasChromium)
  console.log(`browser tests skipped: no browser at ${CHROMIUM} (apt-get install -y chromium)`);

describe.skipIf(!hasChromium)("web app in Chromium", () => {
  let fx: Fixture;
  let server: FixtureServer;
  let browser: { context: BrowserContext; close: () => Promise<void> };
  const consoleErrors: string[] = [];

  beforeAll(async () => {
    fx = await buildFixture();
    server = await startFixtureServer(fx);
    browser = await launch();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  async function open(hash: string, ready: string): Promise<Page> {
    const page = await browser.context.newPage();
    page.on("console", (m) => {
      if (m.type() === "error") consoleErrors.push(`${hash}: ${m.text()}`);
    });
    page.on("pageerror", (e) => consoleErrors.push(`${hash}: ${e.message}`));
    await page.goto(`${server.url}/${hash}`);
    await page.waitForSelector(ready);
    return page;
  }

  /** The per-task table as shown: agent -> bank ordinal -> cell text, or "not served". */
  const perTaskCells = (page: Page) =>
    page.$$eval("#per-task tbody tr", (trs) =>
      Object.fromEntries(
        trs.map((tr) => [
          tr.getAttribute("data-agent")!,
          tr.querySelector('[data-col="not-served"]')
            ? "not served"
            : Object.fromEntries(
                [...tr.querySelectorAll("td[data-ordinal]")].map((td) => [
                  td.getAttribute("data-ordinal")!,
                  td.textContent!.trim(),
                ]),
              ),
        ]),
      ),
    ) as Promise<Record<string, string | Record<string, string>>>;

  const cells = (page: Page, table: string, col: string) =>
    page.$$eval(`${table} tbody td[data-col="${col}"]`, (tds) => tds.map((td) => td.textContent?.trim()));

  it("lists the benchmarks with their prize renders, and the filters narrow the list", async () => {
    const page = await open("#/", "#benchmarks");
    const slugs = () =>
      page.$$eval("#benchmarks tbody tr", (trs) => trs.map((tr) => tr.getAttribute("data-slug")));
    expect(await slugs()).toEqual(["vector-small", "vector-zero-winner", "vector-tampered", "open-numeric"]);
    // the list never verifies: the locked prize of vector-small shows the declared form here
    expect(await page.textContent('tr[data-slug="vector-small"] [data-prize]')).toBe("12.345679 USDC");
    expect(await page.getAttribute('tr[data-slug="vector-small"] [data-prize]', "data-prize")).toBe(
      "declared",
    );
    expect(await page.getAttribute('tr[data-slug="open-numeric"] [data-prize]', "data-prize")).toBe("none");
    await page.selectOption("#f-status", "open");
    expect(await slugs()).toEqual(["open-numeric"]);
    await page.selectOption("#f-status", "");
    await page.selectOption("#f-prize", "with");
    expect(await slugs()).toEqual(["vector-small", "vector-zero-winner", "vector-tampered"]);
    await page.selectOption("#f-prize", "");
    await page.selectOption("#f-grader", "numeric");
    expect(await slugs()).toEqual(["open-numeric"]);
    await page.selectOption("#f-grader", "");
    await page.selectOption("#f-version", "1");
    expect(await slugs()).toEqual(["vector-small", "vector-zero-winner", "vector-tampered"]);
    expect(await page.textContent("#shown-count")).toBe("3 of 4 shown");
    await page.close();
  });

  // probe16 A-F9: the list page read every page of the list (21 requests at 20,000 benchmarks) on first load
  it("reads one page of the list at first, and the next only on 'Load more'", async () => {
    const template = fx.benchmarks.get("open-numeric")!.summary as Record<string, unknown>;
    const total = 250;
    const asked: string[] = [];
    const page = await browser.context.newPage();
    page.on("pageerror", (e) => consoleErrors.push(`list pages: ${e.message}`));
    await page.route(/\/api\/v1\/benchmarks(\?.*)?$/, async (route) => {
      const url = new URL(route.request().url());
      asked.push(url.search);
      const offset = Number(url.searchParams.get("offset") ?? 0);
      const limit = Number(url.searchParams.get("limit") ?? 100);
      const benchmarks = Array.from({ length: Math.max(0, Math.min(limit, total - offset)) }, (_, i) => ({
        ...template,
        slug: `many-${offset + i}`,
        title: `Many ${offset + i}`,
      }));
      const next_offset = offset + limit < total ? offset + limit : null;
      await route.fulfill({ json: { benchmarks, offset, limit, next_offset } });
    });
    await page.goto(`${server.url}/#/`);
    await page.waitForSelector("#benchmarks");
    const rows = () => page.$$eval("#benchmarks tbody tr", (trs) => trs.length);
    expect(asked).toEqual(["?offset=0&limit=100"]);
    expect(await rows()).toBe(100);
    expect(await page.textContent("#shown-count")).toBe("100 of 100 loaded shown; more to load");
    await page.click("#more-benchmarks");
    await page.waitForFunction(() => document.querySelectorAll("#benchmarks tbody tr").length === 200);
    expect(asked).toEqual(["?offset=0&limit=100", "?offset=100&limit=100"]);
    await page.click("#more-benchmarks");
    await page.waitForFunction(() => document.querySelectorAll("#benchmarks tbody tr").length === 250);
    expect(asked).toHaveLength(3);
    expect(await page.$("#more-benchmarks")).toBeNull();
    expect(await page.textContent("#shown-count")).toBe("250 of 250 shown");
    await page.close();
  });

  // probe19 A-F4: the leaderboard page showed the board's first page (100 rows) and said nothing of the rest
  it("reads one page of the board at first, the next on 'Load more rows', with the per-task rows following", async () => {
    const small = fx.benchmarks.get("vector-small")!;
    const template = (small.leaderboard.rows as Record<string, unknown>[])[0]!;
    const scores = small.taskScores as { bank: unknown[]; runs: Record<string, unknown>[] };
    const total = 250;
    const rowAt = (i: number) => ({ ...template, rank: i + 1, agent_id: `agent-${i}`, run_id: `run-${i}` });
    const asked: string[] = [];
    const scoreAsks: number[] = [];
    const page = await browser.context.newPage();
    page.on("pageerror", (e) => consoleErrors.push(`board pages: ${e.message}`));
    await page.route(/\/api\/v1\/benchmarks\/many-rows(\/[a-z-]+)?(\?.*)?$/, async (route) => {
      const url = new URL(route.request().url());
      const tail = url.pathname.replace(/^.*\/many-rows/, "");
      const offset = Number(url.searchParams.get("offset") ?? 0);
      const asks = Number(url.searchParams.get("limit") ?? 100);
      if (tail === "") return route.fulfill({ json: { ...small.detail, slug: "many-rows" } });
      if (tail === "/leaderboard") {
        asked.push(url.search);
        const rows = Array.from({ length: Math.max(0, Math.min(asks, total - offset)) }, (_, i) =>
          rowAt(offset + i),
        );
        const next_offset = offset + asks < total ? offset + asks : null;
        return route.fulfill({
          json: {
            ...small.leaderboard,
            slug: "many-rows",
            rows,
            total_rows: total,
            offset,
            limit: asks,
            next_offset,
          },
        });
      }
      // task-scores by run id: a large bank's cell bound holds 40 runs an answer (probe20 F1)
      const ids = (url.searchParams.get("run_ids") ?? "").split(",");
      scoreAsks.push(ids.length);
      const covered = ids.slice(0, 40);
      const runs = covered.map((run_id) => ({
        ...scores.runs[0]!,
        run_id,
        agent_id: run_id.replace("run", "agent"),
      }));
      const next_offset = ids.length > 40 ? 40 : null;
      return route.fulfill({
        json: { ...scores, slug: "many-rows", runs, offset: 0, limit: 40, next_offset },
      });
    });
    await page.goto(`${server.url}/#/b/many-rows/leaderboard`);
    await page.waitForSelector("#per-task");
    const count = (table: string) => page.$$eval(`${table} tbody tr`, (trs) => trs.length);
    const notServed = () => page.$$eval('#per-task [data-col="not-served"]', (tds) => tds.length);
    expect(asked).toEqual(["?offset=0&limit=100"]);
    expect(await count("#leaderboard")).toBe(100);
    expect(await count("#per-task")).toBe(100);
    expect(await notServed()).toBe(0);
    // the page's 100 run ids, then the 60 and the 20 each answer left
    expect(scoreAsks).toEqual([100, 60, 20]);
    expect(await page.textContent("#board-count")).toBe("100 of 250 rows");
    await page.click("#more-rows");
    await page.waitForFunction(() => document.querySelectorAll("#leaderboard tbody tr").length === 200);
    expect(asked).toEqual(["?offset=0&limit=100", "?offset=100&limit=100"]);
    expect(await page.textContent("#board-count")).toBe("200 of 250 rows");
    expect(await count("#per-task")).toBe(200);
    await page.click("#more-rows");
    await page.waitForFunction(() => document.querySelectorAll("#leaderboard tbody tr").length === 250);
    expect(asked).toHaveLength(3);
    expect(await page.$("#more-rows")).toBeNull();
    expect(await page.textContent("#board-count")).toBe("250 of 250 rows");
    expect(await cells(page, "#leaderboard", "rank")).toEqual(
      Array.from({ length: total }, (_, i) => String(i + 1)),
    );
    expect(await count("#per-task")).toBe(250);
    expect(await notServed()).toBe(0);
    expect(await page.getAttribute("#per-task tbody tr:last-child", "data-run")).toBe("run-249");
    await page.close();
  });

  // probe21 A-F6: the pages were appended whatever happened between two reads: after a finalize an
  // agent showed twice and the new one nowhere; after a close, final rows under the public header
  it("reads the next page only from the same board: one that moved is read again from its top, and the page says so", async () => {
    const small = fx.benchmarks.get("vector-small")!;
    const template = (small.leaderboard.rows as Record<string, unknown>[])[0]!;
    const scores = small.taskScores as { bank: unknown[]; runs: Record<string, unknown>[] };
    // the board as served now: its version, kind and agents in rank order
    let board = {
      version: "7:public",
      kind: "public",
      agents: Array.from({ length: 150 }, (_, i) => `agent-${i}`),
    };
    const asked: string[] = [];
    const page = await browser.context.newPage();
    page.on("pageerror", (e) => consoleErrors.push(`moving board: ${e.message}`));
    await page.route(/\/api\/v1\/benchmarks\/moving(\/[a-z-]+)?(\?.*)?$/, async (route) => {
      const url = new URL(route.request().url());
      const tail = url.pathname.replace(/^.*\/moving/, "");
      const offset = Number(url.searchParams.get("offset") ?? 0);
      const asks = Number(url.searchParams.get("limit") ?? 100);
      if (tail === "") return route.fulfill({ json: { ...small.detail, slug: "moving" } });
      if (tail === "/leaderboard") {
        asked.push(`${board.version} ${url.search}`);
        const rows = board.agents.slice(offset, offset + asks).map((agent_id, i) => ({
          ...template,
          rank: offset + i + 1,
          agent_id,
          run_id: agent_id.replace("agent", "run"),
        }));
        const total = board.agents.length;
        const final = board.kind === "final";
        return route.fulfill({
          json: {
            ...small.leaderboard,
            slug: "moving",
            open: !final,
            status: final ? "closed" : "open",
            board: board.kind,
            ranked_on: final ? "private_composite" : "public_composite",
            board_version: board.version,
            rows,
            total_rows: total,
            offset,
            limit: asks,
            next_offset: offset + asks < total ? offset + asks : null,
          },
        });
      }
      const ids = (url.searchParams.get("run_ids") ?? "").split(",");
      const runs = ids.map((run_id) => ({
        ...scores.runs[0]!,
        run_id,
        agent_id: run_id.replace("run", "agent"),
      }));
      return route.fulfill({
        json: { ...scores, slug: "moving", runs, offset: 0, limit: 100, next_offset: null },
      });
    });
    await page.goto(`${server.url}/#/b/moving/leaderboard`);
    await page.waitForSelector("#leaderboard");
    const agents = () =>
      page.$$eval("#leaderboard tbody tr", (trs) => trs.map((tr) => tr.getAttribute("data-agent")));
    expect(await page.textContent("#board-count")).toBe("100 of 150 rows");
    expect(await page.$("#more-rows-restarted")).toBeNull();
    // a new agent finalizes on top between the two reads
    board = { ...board, version: "8:public", agents: ["agent-new", ...board.agents] };
    await page.click("#more-rows");
    await page.waitForSelector("#more-rows-restarted");
    expect(asked).toEqual([
      "7:public ?offset=0&limit=100",
      "8:public ?offset=100&limit=100",
      "8:public ?offset=0&limit=100",
    ]);
    expect((await agents())[0]).toBe("agent-new");
    expect(await page.textContent("#board-count")).toBe("100 of 151 rows");
    expect(await page.textContent("#more-rows-restarted")).toMatch(/changed/);
    // the benchmark closes between two reads: the final board is read from its top, under its own header
    expect(await page.textContent("#board-kind")).toMatch(/^Public board/);
    board = { version: "9:final", kind: "final", agents: [...board.agents, "agent-late"] };
    await page.click("#more-rows");
    await page.waitForFunction(() =>
      /^Final board/.test(document.querySelector("#board-kind")?.textContent ?? ""),
    );
    expect(asked.slice(3)).toEqual(["9:final ?offset=100&limit=100", "9:final ?offset=0&limit=100"]);
    expect(await page.textContent("#board-count")).toBe("100 of 152 rows");
    expect(await page.$("#more-rows-restarted")).not.toBeNull();
    // the same board: the next page is appended, each agent once, and the note goes
    await page.click("#more-rows");
    await page.waitForFunction(() => document.querySelectorAll("#leaderboard tbody tr").length === 152);
    expect(new Set(await agents()).size).toBe(152);
    expect(await page.textContent("#board-count")).toBe("152 of 152 rows");
    expect(await page.$("#more-rows-restarted")).toBeNull();
    expect(await page.$("#more-rows")).toBeNull();
    await page.close();
  });

  it("shows how to compete, the locked prize, and explorer links on Base but none on a local chain", async () => {
    const page = await open("#/b/vector-small", "#how-to-compete");
    expect(await page.getAttribute("[data-prize]", "data-prize")).toBe("locked");
    // the locked render carries its own "Prize: " label: the page does not add a second one
    expect(await page.textContent('[data-field="prize"]')).toMatch(/^Prize: 12\.345679 USDC, locked at 0x/);
    // probe38 C-F1: the award deadline is shown (after it an unawarded pool goes back to its author)
    expect(await page.textContent('[data-field="prize_times"]')).toBe(
      "Closes 2026-03-02T10:00:00.000Z; award deadline 2026-03-09T10:00:00.000Z (unawarded by then, the author may reclaim the pool)",
    );
    expect(await page.textContent('[data-field="time_budget"]')).toBe("600 s (10.0 min)");
    expect(await page.textContent('[data-field="speed_weight"]')).toBe("0.3");
    const cmds = await page.$$eval("#how-to-compete pre", (ps) => ps.map((p) => p.textContent ?? ""));
    expect(cmds).toContain(
      `curl -sSL ${server.url}/api/v1/scripts/run-benchmark.sh | sh -s -- ${server.url} start vector-small`,
    );
    expect(cmds).toContain(`${server.url}/mcp/benchmarks/vector-small/http`);
    const anchorLinks = await page.$$eval('[data-field="anchor"] a', (as) =>
      as.map((a) => a.getAttribute("href")),
    );
    expect(anchorLinks[0]).toBe(
      "https://basescan.org/tx/0x815326bf41f064030d0629157938308dd62582151a1b86f03d55788de3488169",
    );
    await page.close();
    const local = await open("#/b/open-numeric", "#commitment");
    expect(await local.textContent('[data-field="chain"]')).toBe("local chain (id 8453)");
    expect(await local.$$('[data-field="anchor"] a')).toHaveLength(0);
    await local.close();
  });

  it("shows the final board's numbers with Wilson intervals, and the per-task table", async () => {
    const page = await open("#/b/vector-small/leaderboard", "#per-task");
    const pack = JSON.parse(readFileSync(VECTORS + "small.json", "utf8")) as {
      rank_derivation: {
        rows: {
          rank: number;
          agent_id: string;
          score_composite: string;
          score_public: string;
          attempts_used: number;
          wall_seconds: string;
          rank_accuracy: string;
        }[];
      };
    };
    const rows = pack.rank_derivation.rows;
    expect(await cells(page, "#leaderboard", "rank")).toEqual(rows.map((r) => String(r.rank)));
    expect(await cells(page, "#leaderboard", "composite")).toEqual(rows.map((r) => r.score_composite));
    expect(await cells(page, "#leaderboard", "public")).toEqual(rows.map((r) => r.score_public));
    expect(await cells(page, "#leaderboard", "attempts")).toEqual(rows.map((r) => String(r.attempts_used)));
    expect(await cells(page, "#leaderboard", "wall")).toEqual(rows.map((r) => r.wall_seconds));
    // 8 private tasks: the interval is on rank_accuracy over 8, every row provisional (< 30)
    expect(await cells(page, "#leaderboard", "interval")).toEqual(
      rows.map((r) => `${formatInterval(wilsonInterval(r.rank_accuracy, 8))} n=8`),
    );
    expect(await page.$$("#leaderboard [data-col=provisional]")).toHaveLength(rows.length);
    expect(await page.textContent("#interval-note")).toContain("95% Wilson score interval");
    // per-task: the cells are what the API serves, and they give back the pack's own figures
    const scores = (await (
      await fetch(`${server.url}/api/v1/benchmarks/vector-small/task-scores`)
    ).json()) as TaskScores;
    const shown = await perTaskCells(page);
    const served = scores.runs.map((r) => r.run_id);
    expect(served.length).toBeGreaterThan(0);
    for (const row of rows) {
      const run = scores.runs.find((r) => r.agent_id === row.agent_id);
      if (!run) {
        expect(shown[row.agent_id], row.agent_id).toBe("not served");
        continue;
      }
      const cells = shown[row.agent_id] as Record<string, string>;
      const expected = Object.fromEntries(scores.bank.map((t) => [String(t.bank_ordinal), "--"]));
      for (const t of run.tasks) expected[String(t.bank_ordinal)] = t.credit ?? "hidden";
      expect(cells, row.agent_id).toEqual(expected);
      // SPEC 6 over the credits read off the page equals the pack's rank_accuracy and score_public
      const graded = run.tasks.map((t) => ({
        visibility: t.visibility,
        credit: cells[String(t.bank_ordinal)]!,
      }));
      expect(rankAccuracy(graded, true), row.agent_id).toBe(row.rank_accuracy);
      expect(scorePublic(graded), row.agent_id).toBe(row.score_public);
    }
    // every private task is in every run: once closed none of its cells is blank (the receipts say null)
    const privateOrdinals = scores.bank.filter((t) => t.visibility === "private").map((t) => t.bank_ordinal);
    for (const id of served) {
      const agent = scores.runs.find((r) => r.run_id === id)!.agent_id;
      for (const o of privateOrdinals)
        expect((shown[agent] as Record<string, string>)[String(o)]).toMatch(/^[0-9]+\/[1-9][0-9]*$/);
    }
    expect(await page.textContent("#per-task-note")).toContain(scores.note);
    await page.close();
  });

  it("shows the open board on public scores, with a row below the minimum marked provisional", async () => {
    const page = await open("#/b/open-numeric/leaderboard", "#leaderboard");
    expect(await cells(page, "#leaderboard", "composite")).toEqual(["0.8120", "0.7010", "0.5500"]);
    expect(await page.$$("#leaderboard [data-col=provisional]")).toHaveLength(1);
    expect(await page.$('tr[data-agent="open-c"] [data-col=provisional]')).not.toBeNull();
    expect(await page.textContent("#board-kind")).toContain("nothing shown is computed from private tasks");
    expect(await page.$("#per-task")).toBeNull();
    expect(await page.textContent("#per-task-note")).toContain("shown once the benchmark closes");
    await page.close();
  });

  it("shows the award with the indexer's claim state and outstanding credit", async () => {
    const page = await open("#/b/vector-small/award", "#winners");
    expect(await cells(page, "#winners", "agent")).toEqual(["vec-a", "vec-c", "vec-d"]);
    expect(await cells(page, "#winners", "amount")).toEqual([
      "6.172841 USDC",
      "3.703703 USDC",
      "2.469135 USDC",
    ]);
    expect(await cells(page, "#winners", "claim")).toEqual(["claimed", "unclaimed", "unclaimed"]);
    expect(await page.textContent('[data-field="outstanding"]')).toBe("6.172838 USDC");
    const claimLink = await page.getAttribute('tr[data-place="1"] td:last-child a', "href");
    expect(claimLink).toBe(`https://basescan.org/tx/0x${"7c".repeat(32)}`);
    await page.close();
    const zero = await open("#/b/vector-zero-winner/award", "#zero-winners");
    expect(await zero.textContent("#zero-winners")).toContain("none_at_or_above_threshold");
    await zero.close();
    // the tampered pack raised place 1 by one base unit: the indexer's amount disagrees, and the page says so
    const t = await open("#/b/vector-tampered/award", "#winners");
    expect(await t.textContent('tr[data-place="1"] [data-col="claim"]')).toContain(
      "amount: pack 6172842, indexer 6172841",
    );
    await t.close();
  });

  it("downloads the pack and the report as their exact bytes, and shows each fact on its own", async () => {
    const page = await open("#/b/vector-small/evidence", "#facts");
    const [download] = await Promise.all([
      page.waitForEvent("download"),
      page.click('[data-testid="download-pack"]'),
    ]);
    const got = readFileSync((await download.path())!);
    expect(Buffer.compare(got, readFileSync(VECTORS + "small.json"))).toBe(0);
    const [rdl] = await Promise.all([
      page.waitForEvent("download"),
      page.click('[data-testid="download-report"]'),
    ]);
    expect(
      Buffer.compare(
        readFileSync((await rdl.path())!),
        Buffer.from(fx.benchmarks.get("vector-small")!.verification!.reportBytes),
      ),
    ).toBe(0);
    const expected = JSON.parse(readFileSync(VECTORS + "small.expected.json", "utf8")) as {
      facts: Record<string, string>;
    };
    const states = await page.$$eval("#facts > li", (lis) =>
      lis.map((li) => [li.getAttribute("data-fact"), li.getAttribute("data-state")]),
    );
    expect(Object.fromEntries(states)).toEqual(expected.facts);
    expect(await page.textContent('[data-field="policy"]')).toBe("offline version 0.1.0");
    expect(await page.textContent('[data-field="verifier"]')).toBe("@bench-bounty/verifier 0.1.0");
    expect(await page.textContent('[data-field="ran-at"]')).toBe("2026-03-02T10:00:00.000Z");
    expect(await page.textContent(".cmd pre")).toContain("bench-bounty verify pack.json");
    await page.close();
  });

  it("shows the tampered pack's failed facts with reasons, beside the facts that still hold", async () => {
    const page = await open("#/b/vector-tampered/evidence", "#facts");
    const state = (f: string) => page.getAttribute(`#facts > li[data-fact="${f}"]`, "data-state");
    expect(await state("pack_hash")).toBe("failed");
    expect(await state("payouts")).toBe("failed");
    expect(await state("commitment_root")).toBe("verified");
    expect(await state("onchain_root")).toBe("not-observed");
    expect(await page.textContent('#facts > li[data-fact="pack_hash"] .reasons')).toContain("$.pack_hash");
    expect(await page.textContent('[data-field="policy-outcome"]')).toContain("not met (pack_hash, payouts)");
    // no combined verdict: every fact is its own label
    expect(await page.$$("#facts > li")).toHaveLength(20);
    await page.close();
  });

  it("during a re-verification keeps the stored report's facts and says what is running", async () => {
    const page = await browser.context.newPage();
    await page.route("**/api/v1/benchmarks/vector-small/verification", async (route) => {
      const res = await route.fetch();
      const body = {
        ...(await res.json()),
        state: "retrying",
        attempts: 2,
        last_error: "VerifierNetworkError: rpc down",
      };
      await route.fulfill({ response: res, json: body });
    });
    await page.goto(`${server.url}/#/b/vector-small/evidence`);
    await page.waitForSelector("#facts");
    expect(await page.textContent('[data-field="job-state"]')).toBe(
      "verifying again (retrying): VerifierNetworkError: rpc down; the facts below are the last stored report's",
    );
    expect(await page.$$("#facts > li")).toHaveLength(20);
    await page.close();
  });

  it("logged no console error on any page", () => {
    expect(consoleErrors).toEqual([]);
  });
});
