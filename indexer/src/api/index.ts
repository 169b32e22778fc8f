/**
 * HTTP API of the indexer.
 *
 * - `/graphql` (and `/`): Ponder's GraphQL over every table.
 * - `/sql/db`: read-only SQL over HTTP (query with `@ponder/client`'s `createClient`; `./sql.ts`);
 *   on PGlite only with `INDEXER_UNSAFE_SQL_ON_PGLITE=true` (else 501 `not_served`).
 * - REST (JSON; amounts, ids, blocks and times as decimal strings):
 *   - `GET /bounties?status=&author=&token=&awarder=&limit=&cursor=` (newest id first)
 *   - `GET /bounties/:id`: the bounty with its winners, credits, claims and reclaim
 *   - `GET /accounts/:address/credits?token=&bounty=&limit=&cursor=`: credited / claimed / outstanding per
 *     bounty, totals per token; with `bounty` the one credit of that bounty (a keyed read)
 *   - `GET /anchors/:digest`
 *   - `GET /awards?winner=&bounty=&from=&to=&token=&limit=&cursor=`: award history, newest first; with
 *     `bounty` at most that bounty's award (a keyed read: its cost does not grow with a winner's history)
 *   - `GET /anomalies`: events the indexer refused (impossible transitions)
 *
 * A bad parameter answers 400 `{ error: { code: "invalid_parameter", parameter, message } }`;
 * an unknown bounty or digest answers 404 `{ error: { code: "not_found", message } }`, a path no
 * route serves 404 `{ error: { code: "no_route", message } }` (a client tells a wrong base URL apart).
 * A query over a limit of `lib/limits.ts` answers 400 naming the limit; an unknown route 404,
 * a known route with another method 405 with `Allow`, OPTIONS 204 listing the route's methods (404
 * where no route is); `/sql/db` and `POST /graphql` pass the query gate (`lib/workGate.ts`: 503
 * `server_busy` / 429 `too_many_requests` beyond it); never a 500 for a malformed request.
 * Pages carry `nextCursor` (null on the last page); pass it back as `cursor`.
 */
import { db } from "ponder:api";
import schema from "ponder:schema";
import { Hono, type Context, type Next } from "hono";
import { bodyLimit } from "hono/body-limit";
import { and, asc, desc, eq, graphql, gte, inArray, lt, lte, or, replaceBigInts } from "ponder";
import { prepareGraphql } from "../../lib/graphqlLimits";
import { QUERY_LIMITS, QueryRefused } from "../../lib/limits";
import {
  ParamError,
  paramErrorBody,
  parseAddress,
  parseAwardCursor,
  parseBountyId,
  parseBytes32,
  parseIdCursor,
  parseLimit,
  parseStatus,
  parseTime,
  readQuery,
} from "../../lib/params";
import { readSqlRole, readUnsafeSqlOnPglite } from "../../lib/settings";
import { ponderTableColumns } from "../../lib/sqlScope";
import { QUERY_GATE, gated } from "../../lib/workGate";
import { sqlDb } from "./sql";

const {
  bountyRecord: bounty,
  awardWinner,
  credit,
  claim,
  reclaim,
  anchor,
  accountTotal,
  anomalyRecord: anomaly,
} = schema;

/** The tables `/sql/db` may read: SQL table name → SQL column names. */
const TABLE_COLUMNS = ponderTableColumns(schema);
/** `/sql/db` on PGlite only with `INDEXER_UNSAFE_SQL_ON_PGLITE=true`; its PostgreSQL role (both validated at start by ponder.config.ts). */
const SQL_OPTIONS = {
  unsafeSqlOnPglite: readUnsafeSqlOnPglite(process.env),
  role: readSqlRole(process.env),
};

const app = new Hono();

/**
 * Routes of this app and Ponder's four paths, their methods and query parameter names: another method on them answers
 * 405 with `Allow`; OPTIONS (a CORS preflight) answers 204 listing the route's methods, 400 for
 * an unknown or repeated parameter, and 404 where no route is (probe10 R6).
 */
const ROUTES: readonly { pattern: RegExp; allow: string; params: readonly string[] }[] = [
  { pattern: /^\/(graphql)?$/, allow: "GET, POST", params: [] },
  { pattern: /^\/sql\/db$/, allow: "GET", params: ["sql"] },
  {
    pattern: /^\/bounties$/,
    allow: "GET",
    params: ["status", "author", "token", "awarder", "limit", "cursor"],
  },
  { pattern: /^\/bounties\/[^/]+$/, allow: "GET", params: [] },
  {
    pattern: /^\/accounts\/[^/]+\/credits$/,
    allow: "GET",
    params: ["limit", "cursor", "token", "bounty"],
  },
  { pattern: /^\/anchors\/[^/]+$/, allow: "GET", params: [] },
  {
    pattern: /^\/awards$/,
    allow: "GET",
    params: ["winner", "bounty", "from", "to", "token", "limit", "cursor"],
  },
  { pattern: /^\/anomalies$/, allow: "GET", params: [] },
  // Ponder's own four paths: GET (and its OPTIONS, query check) is answered by Ponder and the pnpm
  // patch before this app; another method falls through to here and is 405 like the routes above
  // (probe31 B-F7: it was the catch-all 404 `no_route`).
  { pattern: /^\/(status|metrics|health|ready)$/, allow: "GET", params: [] },
];

/**
 * The methods a route answers, as its `Access-Control-Allow-Methods` lists them: GET and HEAD (Hono answers
 * HEAD with a GET route), then the route's others (`POST` on `/graphql`); `Allow` adds OPTIONS.
 */
function routeMethods(route: (typeof ROUTES)[number]): string {
  return ["GET", "HEAD", ...route.allow.split(", ").filter((m) => m !== "GET")].join(",");
}

app.use("*", async (c: Context, next: Next) => {
  const route = ROUTES.find((r) => r.pattern.test(c.req.path));
  const method = c.req.method;
  if (method === "OPTIONS") {
    if (route === undefined) return noRoute(c);
    readQuery(c.req.queries(), route.params, c.req.url); // 400 like the route's own check
    const allow = routeMethods(route);
    c.header("Access-Control-Allow-Origin", "*");
    c.header("Access-Control-Allow-Methods", allow);
    c.header("Access-Control-Max-Age", "86400");
    c.header("Allow", `${allow},OPTIONS`);
    const requested = c.req.header("Access-Control-Request-Headers");
    if (requested !== undefined && requested !== "") {
      c.header("Access-Control-Allow-Headers", requested.split(/\s*,\s*/).join(","));
      c.header("Vary", "Access-Control-Request-Headers");
    }
    return c.body(null, 204);
  }
  if (route !== undefined && method !== "HEAD" && !route.allow.split(", ").includes(method)) {
    // every method the route answers, as its OPTIONS says (probe32 B-F8: `Allow: GET` left out HEAD
    // and OPTIONS, which the same route answers; RFC 9110 15.5.6)
    const allow = `${routeMethods(route)},OPTIONS`;
    c.header("Allow", allow);
    return c.json(
      {
        error: {
          code: "method_not_allowed",
          message: `${method} is not allowed on ${c.req.path} (allowed: ${allow})`,
        },
      },
      405,
    );
  }
  return next();
});

app.get("/sql/db", (c) =>
  gated(
    c,
    QUERY_GATE,
    () => sqlDb(c, TABLE_COLUMNS, SQL_OPTIONS),
    (e) => c.json({ error: { code: e.code, limit: e.limit, max: e.max, message: e.message } }, e.status),
  ),
);
app.all("/sql/*", (c) =>
  c.json(
    {
      error: {
        code: "no_route",
        message: "SQL over HTTP answers GET /sql/db only (live queries, /sql/live, are not served)",
      },
    },
    404,
  ),
);

const graphqlHandler = graphql(
  { db, schema },
  {
    maxOperationDepth: QUERY_LIMITS.graphql.maxDepth,
    maxOperationAliases: QUERY_LIMITS.graphql.maxAliases,
    maxOperationTokens: QUERY_LIMITS.graphql.maxTokens,
  },
);
const graphqlBodyLimit = bodyLimit({
  maxSize: QUERY_LIMITS.graphql.maxBodyBytes,
  onError: (c) =>
    graphqlError(
      c,
      new QueryRefused(
        "limit_exceeded",
        `the request body is over ${QUERY_LIMITS.graphql.maxBodyBytes} bytes`,
        "maxBodyBytes",
        QUERY_LIMITS.graphql.maxBodyBytes,
      ),
    ),
});

/** A GraphQL error answer (`{ errors: [...] }`), 400. */
function graphqlError(c: Context, e: QueryRefused) {
  return c.json(
    {
      errors: [
        {
          message: e.message,
          ...(e.locations === undefined ? {} : { locations: e.locations }),
          extensions: { code: e.code, ...(e.limit === undefined ? {} : { limit: e.limit, max: e.max }) },
        },
      ],
    },
    400,
  );
}

/** `application/json`, any case, with or without parameters (`; charset=utf-8`), and nothing else. */
const JSON_MEDIA_TYPE = /^application\/json[ \t]*(;[^,]*)?$/i;

/**
 * Checks the limits of `lib/graphqlLimits.ts` before Ponder's GraphQL runs the operation, and
 * makes sure GraphQL runs exactly what was checked: only `application/json` POST bodies are
 * accepted (415 otherwise: graphql-yoga also reads form-encoded, `application/graphql` and
 * multipart bodies, and a form body that is also JSON showed the guard one query and yoga
 * another; a `Content-Encoding` other than identity or a charset other than UTF-8: 415 naming it), and yoga is handed a request rebuilt from the guard's own parse
 * (`{ query, variables, operationName }`), never the client's bytes. GET serves GraphiQL only; HEAD
 * answers GET's status and header fields.
 * Any query parameter (`?x=1`, `?query=...`) answers 400 `invalid_parameter`, whatever the method.
 */
async function guardedGraphql(c: Context, next: Next) {
  // No query parameters (probe10 R7): GET serves the GraphiQL page and ignored them; queries go in
  // a POST body. 400 `invalid_parameter` naming the first one, as on the other routes.
  try {
    readQuery(c.req.queries(), [], c.req.url);
  } catch (e) {
    if (!(e instanceof ParamError)) throw e;
    throw new ParamError(
      e.parameter,
      `${e.message.replace(/ \(this route takes no query parameters\)$/, "")} (${c.req.path} takes no query parameters: send a query as a POST body)`,
    );
  }
  if (c.req.method === "HEAD") {
    // GET's status and header fields, no body (RFC 9110 9.3.2; probe33 B-F9: graphql-yoga answered HEAD
    // with its own method refusal's headers, `allow: GET, POST` and a JSON length, under status 200)
    c.req.raw = new Request(c.req.url, { method: "GET", headers: c.req.raw.headers });
    const get = (await graphqlHandler(c, next)) as Response;
    const headers = new Headers(get.headers);
    headers.set("content-length", String((await get.arrayBuffer()).byteLength)); // GET's, measured
    return new Response(null, { status: get.status, headers });
  }
  if (c.req.method !== "POST") return graphqlHandler(c, next);
  const contentType = c.req.header("content-type");
  if (contentType === undefined || !JSON_MEDIA_TYPE.test(contentType.trim())) {
    return c.json(
      {
        errors: [
          {
            message: `POST /graphql takes an application/json body ({ "query": "...", "variables": { ... } }), got content-type ${JSON.stringify(contentType ?? "(none)")}`,
            extensions: { code: "unsupported_media_type" },
          },
        ],
      },
      415,
    );
  }
  // a compressed body, or one in another charset, is refused by name as `serve` refuses it (probe34
  // B-N1: a gzip body was answered "not UTF-8", sending the client to look for a charset problem)
  const encoding = c.req.header("content-encoding")?.trim();
  const charset = /;\s*charset\s*=\s*"?([^";\s]*)/i.exec(contentType)?.[1]?.toLowerCase();
  const unread =
    encoding !== undefined && encoding !== "" && encoding.toLowerCase() !== "identity"
      ? `send the body uncompressed: Content-Encoding ${JSON.stringify(encoding)} is not read`
      : charset !== undefined && charset !== "utf-8" && charset !== "utf8"
        ? `send the JSON body encoded as UTF-8: charset ${JSON.stringify(charset)} is not read`
        : undefined;
  if (unread !== undefined)
    return c.json({ errors: [{ message: unread, extensions: { code: "unsupported_media_type" } }] }, 415);
  // decoded strictly: a lossy decode turned bytes that are not UTF-8 into U+FFFD and ran the query
  // with that text (probe26 B-F6); refused 400 like a body that is not JSON
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(await c.req.raw.clone().arrayBuffer());
  } catch (e) {
    if (!(e instanceof TypeError)) throw e;
    return graphqlError(
      c,
      new QueryRefused("invalid_query", "the body is not UTF-8: send the JSON body encoded as UTF-8"),
    );
  }
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch (e) {
    if (!(e instanceof SyntaxError)) throw e;
    return graphqlError(
      c,
      new QueryRefused("invalid_query", 'the body must be JSON: { "query": "...", "variables": { ... } }'),
    );
  }
  const { query, variables, operationName } = (body ?? {}) as Record<string, unknown>;
  if (typeof query !== "string") {
    return graphqlError(c, new QueryRefused("invalid_query", 'the body needs "query", a string'));
  }
  if (
    variables !== undefined &&
    variables !== null &&
    (typeof variables !== "object" || Array.isArray(variables))
  ) {
    return graphqlError(c, new QueryRefused("invalid_query", '"variables" must be an object'));
  }
  if (operationName !== undefined && operationName !== null && typeof operationName !== "string") {
    return graphqlError(c, new QueryRefused("invalid_query", '"operationName" must be a string'));
  }
  let prepared: ReturnType<typeof prepareGraphql>;
  try {
    prepared = prepareGraphql(query, (variables ?? {}) as Record<string, unknown>);
  } catch (e) {
    if (e instanceof QueryRefused) return graphqlError(c, e);
    throw e;
  }
  c.req.raw = new Request(c.req.url, {
    method: "POST",
    headers: { "content-type": "application/json", accept: c.req.header("accept") ?? "application/json" },
    body: JSON.stringify({
      query: prepared.query,
      variables: prepared.variables,
      operationName: operationName ?? undefined,
    }),
  });
  return gated(
    c,
    QUERY_GATE,
    async () => (await graphqlHandler(c, next)) as Response,
    (e) =>
      c.json(
        { errors: [{ message: e.message, extensions: { code: e.code, limit: e.limit, max: e.max } }] },
        e.status,
      ),
  );
}

app.use("/graphql", graphqlBodyLimit, guardedGraphql);
app.use("/", graphqlBodyLimit, guardedGraphql);

/** JSON answer with every bigint written as a decimal string. */
function json(c: Context, body: unknown, status: 200 | 404 = 200) {
  return c.json(replaceBigInts(body as object, (v) => String(v)) as object, status);
}

/**
 * The 404 of an unknown id or digest: `details` echoes what was asked (`{bounty_id}`, `{digest}`), so a
 * client tells the indexer's "no such bounty" from another server's 404 (probe13 C6).
 */
function notFound(c: Context, message: string, details: Record<string, string>) {
  return json(c, { error: { code: "not_found", message, details } }, 404);
}

app.onError((err, c) => {
  if (err instanceof ParamError) return c.json(paramErrorBody(err), 400);
  console.error("[bench-bounty indexer] API error:", err);
  return c.json({ error: { code: "internal", message: "internal error" } }, 500);
});

/** The JSON 404 of a path no route serves: code `no_route`, unlike an unknown id's `not_found`. */
function noRoute(c: Context) {
  return c.json(
    {
      error: {
        code: "no_route",
        message: `no route ${c.req.method} ${c.req.path} (routes: /bounties, /bounties/:id, /accounts/:address/credits, /anchors/:digest, /awards, /anomalies, /graphql, /sql/db, /health, /ready, /status)`,
      },
    },
    404,
  );
}

app.notFound(noRoute);

app.get("/bounties", async (c) => {
  const q = readQuery(
    c.req.queries(),
    ["status", "author", "token", "awarder", "limit", "cursor"],
    c.req.url,
  );
  const limit = parseLimit("limit", q.limit);
  const where = and(
    q.status === undefined ? undefined : eq(bounty.status, parseStatus("status", q.status)),
    q.author === undefined ? undefined : eq(bounty.author, parseAddress("author", q.author)),
    q.token === undefined ? undefined : eq(bounty.token, parseAddress("token", q.token)),
    q.awarder === undefined ? undefined : eq(bounty.awarder, parseAddress("awarder", q.awarder)),
    q.cursor === undefined ? undefined : lt(bounty.id, parseIdCursor("cursor", q.cursor)),
  );
  const rows = await db
    .select()
    .from(bounty)
    .where(where)
    .orderBy(desc(bounty.id))
    .limit(limit + 1);
  const page = rows.slice(0, limit);
  return json(c, { items: page, nextCursor: rows.length > limit ? String(page.at(-1)!.id) : null });
});

app.get("/bounties/:id", async (c) => {
  readQuery(c.req.queries(), [], c.req.url);
  const id = parseBountyId("id", c.req.param("id"));
  const [row] = await db.select().from(bounty).where(eq(bounty.id, id));
  if (row === undefined) return notFound(c, `no bounty ${id} is indexed`, { bounty_id: String(id) });
  const [winners, credits, claims, reclaims, anomalies] = await Promise.all([
    db.select().from(awardWinner).where(eq(awardWinner.bountyId, id)).orderBy(asc(awardWinner.place)),
    db.select().from(credit).where(eq(credit.bountyId, id)).orderBy(asc(credit.account)),
    db
      .select()
      .from(claim)
      .where(eq(claim.bountyId, id))
      .orderBy(asc(claim.blockNumber), asc(claim.logIndex)),
    db
      .select()
      .from(reclaim)
      .where(eq(reclaim.bountyId, id))
      .orderBy(asc(reclaim.blockNumber), asc(reclaim.logIndex)),
    db.select().from(anomaly).where(eq(anomaly.bountyId, id)).orderBy(asc(anomaly.blockNumber)),
  ]);
  return json(c, {
    bounty: row,
    winners,
    credits,
    claims,
    reclaim: reclaims.find((r) => r.applied) ?? null,
    anomalies,
  });
});

/**
 * An account's credits, newest bounty first. With `bounty`, the credit of that one bounty (a read by the
 * table's key `(bountyId, account)`: a verifier finds a pack's credit without paging through a history that
 * anyone can grow with dust awards to the account, probe27 C-F8); `totals` are the account's either way.
 */
app.get("/accounts/:address/credits", async (c) => {
  const q = readQuery(c.req.queries(), ["limit", "cursor", "token", "bounty"], c.req.url);
  const account = parseAddress("address", c.req.param("address"));
  const limit = parseLimit("limit", q.limit);
  const token = q.token === undefined ? undefined : parseAddress("token", q.token);
  const bountyId = q.bounty === undefined ? undefined : parseBountyId("bounty", q.bounty);
  const where = and(
    bountyId === undefined ? undefined : eq(credit.bountyId, bountyId),
    eq(credit.account, account),
    token === undefined ? undefined : eq(credit.token, token),
    q.cursor === undefined ? undefined : lt(credit.bountyId, parseIdCursor("cursor", q.cursor)),
  );
  const [rows, totals] = await Promise.all([
    db
      .select()
      .from(credit)
      .where(where)
      .orderBy(desc(credit.bountyId))
      .limit(limit + 1),
    db
      .select()
      .from(accountTotal)
      .where(
        and(
          eq(accountTotal.account, account),
          token === undefined ? undefined : eq(accountTotal.token, token),
        ),
      )
      .orderBy(asc(accountTotal.token)),
  ]);
  const page = rows.slice(0, limit);
  return json(c, {
    account,
    totals,
    credits: page,
    nextCursor: rows.length > limit ? String(page.at(-1)!.bountyId) : null,
  });
});

app.get("/anchors/:digest", async (c) => {
  readQuery(c.req.queries(), [], c.req.url);
  const digest = parseBytes32("digest", c.req.param("digest"));
  const [row] = await db.select().from(anchor).where(eq(anchor.digest, digest));
  if (row === undefined)
    return notFound(c, `digest ${digest} is not anchored (as far as the indexer has read)`, { digest });
  return json(c, row);
});

/**
 * Award history, newest first (award block, then log index), filtered by winner, bounty, time and token.
 * With `bounty`, at most that bounty's award: a read by the bounty's key, and with `winner` too by the
 * winners' key `(bountyId, place)`, so its cost does not grow with the winner's history (a verifier looks
 * a pack's award up this way; paging `?winner=` alone could be buried under dust awards, probe27 C-F8).
 */
app.get("/awards", async (c) => {
  const q = readQuery(
    c.req.queries(),
    ["winner", "bounty", "from", "to", "token", "limit", "cursor"],
    c.req.url,
  );
  const limit = parseLimit("limit", q.limit);
  const from = q.from === undefined ? undefined : parseTime("from", q.from);
  const to = q.to === undefined ? undefined : parseTime("to", q.to);
  if (from !== undefined && to !== undefined && from > to) {
    throw new ParamError("from", `"from" (${from}) is after "to" (${to})`);
  }
  const winner = q.winner === undefined ? undefined : parseAddress("winner", q.winner);
  const bountyId = q.bounty === undefined ? undefined : parseBountyId("bounty", q.bounty);
  const token = q.token === undefined ? undefined : parseAddress("token", q.token);
  const cursor = q.cursor === undefined ? undefined : parseAwardCursor("cursor", q.cursor);
  const where = and(
    eq(bounty.status, "Awarded"),
    bountyId === undefined ? undefined : eq(bounty.id, bountyId),
    from === undefined ? undefined : gte(bounty.awardedAt, from),
    to === undefined ? undefined : lte(bounty.awardedAt, to),
    token === undefined ? undefined : eq(bounty.token, token),
    winner === undefined
      ? undefined
      : inArray(
          bounty.id,
          db
            .select({ id: awardWinner.bountyId })
            .from(awardWinner)
            .where(
              and(
                // with the bounty named, the winners of that bounty only (its key's prefix), not the account's
                bountyId === undefined ? undefined : eq(awardWinner.bountyId, bountyId),
                eq(awardWinner.account, winner),
              ),
            ),
        ),
    cursor === undefined
      ? undefined
      : or(
          lt(bounty.awardedBlock, cursor.block),
          and(eq(bounty.awardedBlock, cursor.block), lt(bounty.awardedLogIndex, cursor.logIndex)),
        ),
  );
  const rows = await db
    .select()
    .from(bounty)
    .where(where)
    .orderBy(desc(bounty.awardedBlock), desc(bounty.awardedLogIndex))
    .limit(limit + 1);
  const page = rows.slice(0, limit);
  const winners =
    page.length === 0
      ? []
      : await db
          .select()
          .from(awardWinner)
          .where(
            inArray(
              awardWinner.bountyId,
              page.map((r) => r.id),
            ),
          )
          .orderBy(asc(awardWinner.bountyId), asc(awardWinner.place));
  const items = page.map((r) => ({
    bountyId: r.id,
    token: r.token,
    author: r.author,
    awarder: r.awarder,
    pool: r.pool,
    testSetRoot: r.testSetRoot,
    rankingDigest: r.rankingDigest,
    authorRemainder: r.authorRemainder,
    paidToWinners: r.paidToWinners,
    winnerCount: r.winnerCount,
    awardedBlock: r.awardedBlock,
    awardedLogIndex: r.awardedLogIndex,
    awardedTx: r.awardedTx,
    awardedAt: r.awardedAt,
    winners: winners
      .filter((w) => w.bountyId === r.id)
      .map((w) => ({
        place: w.place,
        account: w.account,
        amount: w.amount,
        claimedAmount: w.claimedAmount,
        outstanding: w.outstanding,
        claimTx: w.claimTx,
      })),
  }));
  const last = page.at(-1);
  return json(c, {
    items,
    nextCursor:
      rows.length > limit && last !== undefined ? `${last.awardedBlock}:${last.awardedLogIndex}` : null,
  });
});

app.get("/anomalies", async (c) => {
  readQuery(c.req.queries(), [], c.req.url);
  const rows = await db.select().from(anomaly).orderBy(asc(anomaly.blockNumber), asc(anomaly.id));
  return json(c, { items: rows });
});

// Ponder mounts this app inside its own (which serves /health, /ready, /status, /metrics first), and
// the outer app's not-found answer is plain text: this last catch-all answers every path that no
// route above took with the JSON 404.
app.all("*", noRoute);

export default app;
