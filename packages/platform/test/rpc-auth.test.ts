/**
 * probe10 R3 follow-up: an RPC URL with userinfo (`http://user:pw@host/path`) reaches the node through
 * the platform's chain client, the userinfo sent as an `Authorization: Basic` header (fetch refuses a
 * URL that carries credentials), and a failure names the RPC by its origin only.
 */
import { startBasicAuthRpcStub, type RpcStub } from "@bench-bounty/devchain/stubs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ChainGateway } from "../src/chain.js";
import { PlatformError } from "../src/errors.js";

let rpc: RpcStub;
beforeAll(async () => {
  rpc = await startBasicAuthRpcStub("ru", "r p@ss");
});
afterAll(() => rpc.close());

const gateway = (rpcUrl: string, log?: (line: string) => void): ChainGateway =>
  ChainGateway.connect({
    rpcUrl,
    ...(log ? { log } : {}),
    chainId: 31337,
    contracts: {
      benchmarkBounty: "0x1000000000000000000000000000000000000001",
      anchorRegistry: "0x2000000000000000000000000000000000000002",
    },
    privateKey: `0x${"11".repeat(32)}`,
  });

describe("an RPC URL with userinfo (Basic auth)", () => {
  it("the chain client answers eth_chainId", async () => {
    const g = gateway(`http://ru:r%20p%40ss@${rpc.host}/v3/RPCKEY?apikey=Q`);
    await expect(g.publicClient.getChainId()).resolves.toBe(31337);
    expect(rpc.seen.at(-1)?.url).toBe("/v3/RPCKEY?apikey=Q");
  });

  it("a refusal names the RPC by its origin only", async () => {
    const g = gateway(`http://ru:WRONGPW@${rpc.host}/v3/RPCKEY?apikey=RPCQ`);
    const e = await g.unminedCount().catch((x: unknown) => x);
    expect(e).toBeInstanceOf(PlatformError);
    expect((e as PlatformError).code).toBe("chain_error");
    expect(JSON.stringify({ m: (e as Error).message, d: (e as PlatformError).details })).not.toMatch(
      /WRONGPW|RPCKEY|RPCQ/,
    );
  });

  it("a refusal served to users says 'the chain RPC', never its origin; the operator's log names the origin (probe17 A-F5)", async () => {
    const logged: string[] = [];
    const g = gateway(`http://ru:WRONGPW@${rpc.host}/v3/RPCKEY?apikey=RPCQ`, (line) => logged.push(line));
    const e = await g.unminedCount().catch((x: unknown) => x);
    expect(e).toBeInstanceOf(PlatformError);
    // the message and details are what a finalize's receipt_anchor_error, a publish's
    // commitment_anchor_error and a bounty attach's 502 serve
    const served = JSON.stringify({ m: (e as Error).message, d: (e as PlatformError).details });
    expect((e as Error).message).toMatch(/ \(the chain RPC\)$/);
    for (const part of [rpc.host, rpc.host.split(":")[1]!, "WRONGPW", "RPCKEY", "RPCQ"])
      expect(served).not.toContain(part);
    expect(logged).toHaveLength(1);
    expect(logged[0]).toContain(`chain RPC http://${rpc.host}: `);
    expect(logged[0]).not.toMatch(/WRONGPW|RPCKEY|RPCQ/);
  });
});
