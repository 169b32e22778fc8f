/**
 * probe D1-F12: the 16 KiB cap on the params of messages other than `tools/call` (probe13 C12) was per
 * message: a batch of 4 `initialize` of 14 KB params each (56 KB, anonymous) held the event loop
 * 1-2 s, 42 of them (595 KB, keyed) 12-26 s, while the SDK built every zod issue of each. The cap now
 * bounds the params of all such messages of a body together.
 */
import { describe, expect, it } from "vitest";
import { useLive } from "./helpers.js";

const live = useLive();

describe("the params of non-tools/call messages are capped per body (probe D1-F12)", () => {
  it("a batch of four pings of 14 KB params each is 413 -32600 naming mcp_params_bytes; one passes", async () => {
    const ping = (id: number) => ({
      jsonrpc: "2.0",
      id,
      method: "ping",
      params: { _meta: {}, icons: Array.from({ length: 7_000 }, () => 1) },
    });
    const send = async (body: unknown) => {
      const res = await fetch(`${live.url}/mcp`, {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
        body: JSON.stringify(body),
      });
      return { status: res.status, body: (await res.json()) as any };
    };
    const one = await send(ping(1));
    expect(one.status).toBe(200);
    const four = await send([ping(1), ping(2), ping(3), ping(4)]);
    expect(four.status).toBe(413);
    expect(four.body).toMatchObject({
      id: null,
      error: { code: -32600, data: { limit: "mcp_params_bytes", limit_bytes: 16 * 1024 } },
    });
  });
});
