/**
 * `serve`'s award waits less for its transaction than a request may last (probe14 D3-F7: the platform's
 * 180 s wait ended in a bare 503 `request_timeout` after the server's 60 s, never saying the transaction
 * was sent); past the wait the operator gets `award_pending` with the transaction's hash.
 */
import { DEFAULT_LIMITS } from "@bench-bounty/server";
import { describe, expect, it } from "vitest";
import { SERVE_AWARD_WAIT_MS } from "../src/serve.js";

describe("serve's award wait", () => {
  it("ends well before the server's request time limit", () => {
    expect(SERVE_AWARD_WAIT_MS).toBeGreaterThan(0);
    expect(SERVE_AWARD_WAIT_MS).toBeLessThanOrEqual(DEFAULT_LIMITS.handlerTimeoutMs - 10_000);
  });
});
