/**
 * `POST /api/v1/benchmarks/:slug/claims/relay` (issue 15 item 5): a winner's signed EIP-712 `Claim`
 * submitted as `claimWithSig` by the operator's signer, who pays the gas (SPEC 1.1, v1.1). Needs a
 * key (any account: the signature is the authority over the credit) and has its own tighter rate
 * limit (`Limits.relayBurst`, `relayPerSecond`), since each accepted call spends the operator's gas.
 */
import { OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "../env.js";
import { sendJson } from "../http.js";
import { defineRoute } from "../route.js";
import { RelayClaimBody, RelayedClaim } from "../schemas.js";

export function claimRoutes(): OpenAPIHono<AppEnv> {
  const app = new OpenAPIHono<AppEnv>();
  defineRoute(app, {
    method: "post",
    path: "/benchmarks/:slug/claims/relay",
    tags: ["claims"],
    auth: "required",
    summary:
      "Relay a winner's signed claim (claimWithSig): the operator pays the gas, the credit goes to `to`",
    body: RelayClaimBody,
    ok: { status: 200, schema: RelayedClaim, description: "the mined claim" },
    // 409 also claim_pending (sent, not mined by the deadline) and token_refused (the token refuses the
    // transfer: a paused token, the bounty contract blacklisted); 503 server_busy (not sent by it)
    errors: [401, 403, 404, 409, 422, 429, 502, 503],
    handler: async (c, body) =>
      sendJson(
        c,
        // bounded like the award (probe24 C-F2): sent and awaited by three quarters of the time limit
        await c.var.domain.relayClaim(c.var.principal, c.req.param("slug"), body, {
          answerBy: c.var.awardBy,
        }),
      ),
  });
  return app;
}
