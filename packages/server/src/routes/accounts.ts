/**
 * `/api/v1/accounts`: register (no key; the key is shown once), me, withdrawal address, agents, and the
 * account's API keys (issue one more, shown once; revoke one by prefix, never the whole key in the URL,
 * never the last active one).
 */
import { OpenAPIHono } from "@hono/zod-openapi";
import { keyPrefixOf, MAX_ACTIVE_KEYS } from "@bench-bounty/platform";
import type { AppEnv } from "../env.js";
import { EdgeError } from "../errors.js";
import { sendJson } from "../http.js";
import { clientNetworkOf } from "../middleware/limits.js";
import { defineRoute } from "../route.js";
import { Account, AgentBody, RegisterBody, Registration, WithdrawalBody } from "../schemas.js";

/**
 * Refuses a whole API key as the `{key_prefix}` of `DELETE /accounts/me/keys/{key_prefix}`: a URL's path
 * is kept by access logs, proxies and browser histories, so a key there leaks its secret (keys29 item 3).
 * The domain takes a whole key as its prefix (`namedKeyPrefix`: the CLI's and MCP `revoke_key`'s argument
 * is not a URL); this route alone asks for the prefix. The text is never echoed.
 * @throws EdgeError 422 `invalid_request` (`details.field: "key_prefix"`) for a whole key
 */
function refuseWholeKeyInPath(named: string): void {
  if (keyPrefixOf(named) !== null)
    throw new EdgeError(
      "invalid_request",
      "key_prefix: give the prefix, never the whole key, in a URL (bbk_ and 12 hex digits, as GET /api/v1/accounts/me lists it in keys[]): a URL's path is kept by access logs and proxies; nothing was revoked and the text given is not shown (if it went through a proxy, treat that key as leaked: revoke it by its prefix)",
      { field: "key_prefix" },
    );
}

export function accountRoutes(): OpenAPIHono<AppEnv> {
  const app = new OpenAPIHono<AppEnv>();
  defineRoute(app, {
    method: "post",
    path: "/accounts",
    tags: ["accounts"],
    auth: "none",
    bodyOptional: true,
    summary: "Register an account (its API key is in this answer only)",
    body: RegisterBody,
    ok: { status: 201, schema: Registration, description: "the account and its key" },
    errors: [400, 409, 422, 429, 503],
    handler: async (c, body) =>
      sendJson(
        c,
        // the client network is recorded on the account: its share of the all-accounts budgets (probe30 A-F7)
        await c.var.domain.register(body, { answerBy: c.var.revealBy, network: clientNetworkOf(c.env) }),
        201,
      ),
  });
  defineRoute(app, {
    method: "get",
    path: "/accounts/me",
    tags: ["accounts"],
    auth: "required",
    summary: "The caller's account",
    ok: { status: 200, schema: Account, description: "the account" },
    errors: [401, 403],
    handler: async (c) => sendJson(c, await c.var.domain.me(c.var.principal)),
  });
  defineRoute(app, {
    method: "put",
    path: "/accounts/me/withdrawal-address",
    tags: ["accounts"],
    auth: "required",
    summary: "Set the withdrawal address credited when this account's agents win",
    body: WithdrawalBody,
    ok: { status: 200, schema: Account, description: "the account" },
    errors: [401, 403, 409, 422, 503],
    handler: async (c, body) =>
      sendJson(
        c,
        await c.var.domain.setWithdrawalAddress(c.var.principal, body.withdrawal_address, {
          answerBy: c.var.revealBy,
        }),
      ),
  });
  defineRoute(app, {
    method: "post",
    path: "/accounts/me/agents",
    tags: ["accounts"],
    auth: "required",
    summary: "Register one more agent under this account",
    body: AgentBody,
    ok: { status: 201, schema: Account, description: "the account" },
    errors: [401, 403, 409, 422, 429, 503],
    handler: async (c, body) =>
      sendJson(c, await c.var.domain.registerAgent(c.var.principal, body, { answerBy: c.var.revealBy }), 201),
  });
  defineRoute(app, {
    method: "post",
    path: "/accounts/me/keys",
    tags: ["accounts"],
    auth: "required",
    summary: `Issue one more API key for this account (the key is in this answer only); at most ${MAX_ACTIVE_KEYS} active keys, past them 409 too_many_keys: revoke one first`,
    ok: { status: 201, schema: Registration, description: "the account and the new key" },
    errors: [401, 403, 409, 422, 503],
    handler: async (c) =>
      sendJson(c, await c.var.domain.issueKey(c.var.principal, { answerBy: c.var.revealBy }), 201),
  });
  defineRoute(app, {
    method: "delete",
    path: "/accounts/me/keys/:key_prefix",
    tags: ["accounts"],
    auth: "required",
    summary:
      "Revoke one of this account's keys by its prefix (the key in use too), never the last active one: issue a new key first. The prefix only: a whole key in the URL is refused 422 (a URL is logged)",
    ok: { status: 200, schema: Account, description: "the account, the key listed with its revoked_at" },
    errors: [401, 403, 404, 409, 422, 503],
    handler: async (c) => {
      const named = c.req.param("key_prefix");
      refuseWholeKeyInPath(named);
      return sendJson(c, await c.var.domain.revokeKey(c.var.principal, named, { answerBy: c.var.revealBy }));
    },
  });
  return app;
}
