/**
 * The access matrix: every route x {no key, competitor, other competitor, author, other author,
 * operator}. Each cell is the status the platform's owner rules give; the body of every 401/403 names
 * its rule.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  call,
  citiesDataset,
  CITIES_PUBLISH,
  OPERATOR_KEY,
  publishCities,
  register,
  startLive,
  type Live,
} from "./helpers.js";

type Who = "anon" | "competitor" | "other_competitor" | "author" | "other_author" | "operator";
const WHO: Who[] = ["anon", "competitor", "other_competitor", "author", "other_author", "operator"];

let live: Live;
const keys: Record<Who, string | null> = {
  anon: null,
  competitor: "",
  other_competitor: "",
  author: "",
  other_author: "",
  operator: OPERATOR_KEY,
};
let slug = "";
let runId = "";
let spareDataset = "";

beforeAll(async () => {
  live = await startLive();
  const pub = await publishCities(live.url, 6, "matrix");
  slug = pub.slug;
  keys.author = pub.author.key;
  keys.other_author = (await register(live.url, "other-author")).key;
  keys.competitor = (await register(live.url, "competitor")).key;
  keys.other_competitor = (await register(live.url, "other-competitor")).key;
  runId = (await call(live.url, "POST", `/api/v1/benchmarks/${slug}/runs`, { key: keys.competitor })).json.run
    .id;
  spareDataset = (
    await call(live.url, "POST", "/api/v1/datasets", { key: keys.author, body: citiesDataset(4, "spare") })
  ).json.dataset_id;
});
afterAll(async () => {
  await live.stop();
});

interface Row {
  method: string;
  path: () => string;
  body?: () => unknown;
  expect: Record<Who, number>;
}
const all = (s: number): Record<Who, number> => ({
  anon: s,
  competitor: s,
  other_competitor: s,
  author: s,
  other_author: s,
  operator: s,
});
const keyed = (s: number, over: Partial<Record<Who, number>> = {}): Record<Who, number> => ({
  ...all(s),
  anon: 401,
  ...over,
});

// Order matters where a call changes state: the run's owner finalizes last.
const MATRIX: Row[] = [
  { method: "GET", path: () => "/api/v1/benchmarks", expect: all(200) },
  { method: "GET", path: () => `/api/v1/benchmarks/${slug}`, expect: all(200) },
  { method: "GET", path: () => `/api/v1/benchmarks/${slug}/corpus`, expect: keyed(200) },
  { method: "GET", path: () => `/api/v1/benchmarks/${slug}/leaderboard`, expect: all(200) },
  { method: "GET", path: () => `/api/v1/benchmarks/${slug}/commitment`, expect: all(200) },
  { method: "GET", path: () => `/api/v1/benchmarks/${slug}/award-evidence`, expect: all(404) },
  { method: "GET", path: () => `/api/v1/benchmarks/${slug}/entries`, expect: all(200) },
  // no pack yet: 404 verification_unavailable for every reader; a re-verification is refused first
  // to anyone but the author and the operator (their 404 comes after the owner rule)
  { method: "GET", path: () => `/api/v1/benchmarks/${slug}/verification`, expect: all(404) },
  { method: "GET", path: () => `/api/v1/benchmarks/${slug}/verification/report`, expect: all(404) },
  {
    method: "POST",
    path: () => `/api/v1/benchmarks/${slug}/verification`,
    expect: keyed(403, { author: 404, operator: 404 }),
  },
  // off-chain: no_chain (503) for any key; the devchain test covers wrong signers and the owner of the credit
  {
    method: "POST",
    path: () => `/api/v1/benchmarks/${slug}/claims/relay`,
    body: () => ({
      account: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8",
      to: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8",
      deadline: "4000000000",
      signature: "0x" + "11".repeat(65),
    }),
    expect: keyed(503),
  },
  { method: "GET", path: () => "/api/v1/datasets/formats", expect: all(200) },
  {
    method: "POST",
    path: () => "/api/v1/datasets/validate",
    body: () => citiesDataset(3, "v"),
    expect: all(200),
  },
  { method: "GET", path: () => "/api/v1/scripts/run-benchmark.sh", expect: all(200) },
  { method: "GET", path: () => "/api/v1/content/compete-on-benchmarks.md", expect: all(200) },
  { method: "GET", path: () => "/api/v1/accounts/me", expect: keyed(200) },
  { method: "GET", path: () => "/api/v1/benchmarks/runs/mine", expect: keyed(200) },
  {
    method: "POST",
    path: () => `/api/v1/benchmarks/${slug}/runs`,
    expect: keyed(201, { competitor: 409, operator: 403 }),
  },
  {
    method: "GET",
    path: () => `/api/v1/benchmarks/runs/${runId}`,
    expect: keyed(403, { competitor: 200, author: 200, operator: 200 }),
  },
  {
    method: "GET",
    path: () => `/api/v1/benchmarks/runs/${runId}/tasks`,
    expect: keyed(403, { competitor: 200 }),
  },
  {
    method: "POST",
    path: () => `/api/v1/benchmarks/runs/${runId}/submissions`,
    body: () => ({ answers: [{ ordinal: 0, answer_text: "x" }] }),
    expect: keyed(403, { competitor: 200 }),
  },
  {
    method: "GET",
    path: () => `/api/v1/benchmarks/${slug}/runs/${runId}/receipt`,
    expect: { ...all(404), author: 404 },
  },
  {
    method: "POST",
    path: () => `/api/v1/datasets/${spareDataset}/benchmark`,
    body: () => CITIES_PUBLISH,
    expect: keyed(403, { author: 201 }),
  },
  // The author rule comes before the chain: a non-author gets 403 benchmark_author_only; off-chain the
  // author and the operator get `no_chain` (503).
  {
    method: "POST",
    path: () => `/api/v1/benchmarks/${slug}/bounty`,
    body: () => ({ bounty_id: "1" }),
    expect: keyed(403, { author: 503, operator: 503 }),
  },
  { method: "POST", path: () => `/api/v1/benchmarks/${slug}/award`, expect: keyed(403, { operator: 503 }) },
  {
    method: "PUT",
    path: () => "/api/v1/accounts/me/withdrawal-address",
    body: () => ({ withdrawal_address: "0x1111111111111111111111111111111111111111" }),
    expect: keyed(200, { operator: 403 }),
  },
  {
    method: "POST",
    path: () => `/api/v1/benchmarks/runs/${runId}/finalize`,
    expect: keyed(403, { competitor: 200 }),
  },
];

describe("access matrix", () => {
  it("every route answers each identity as its owner rule says, naming the rule", async () => {
    const seen: string[] = [];
    const wrong: string[] = [];
    for (const row of MATRIX) {
      // The owner's state-changing call goes last in its row (others must be refused first).
      const order = [...WHO].sort((a, b) => Number(row.expect[a] < 300) - Number(row.expect[b] < 300));
      for (const who of order) {
        const r = await call(live.url, row.method, row.path(), {
          key: keys[who],
          ...(row.body ? { body: row.body() } : {}),
        });
        const cell = `${row.method} ${row.path()} as ${who}: ${r.status}`;
        seen.push(cell);
        if (r.status !== row.expect[who])
          wrong.push(`${cell} (expected ${row.expect[who]}: ${r.text.slice(0, 200)})`);
        if (r.status === 401 || r.status === 403) {
          expect(r.json.error.details.rule, cell).toBeTypeOf("string");
          expect(r.json.error.message, cell).not.toBe("");
        }
      }
    }
    expect(wrong).toEqual([]);
    expect(seen.length).toBe(MATRIX.length * WHO.length);
  });
});
