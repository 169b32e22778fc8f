/**
 * probe26 C-F7: a BenchmarkBounty (or an AnchorRegistry) deployed at another address than the
 * protocol's was taken as a withdrawal address, so an award's USDC went into a contract that can never
 * move it. With a chain configured, the address's runtime code is compared with the protocol's
 * (`recipientCodeProblem`); a smart-contract wallet (any other code) stays allowed.
 */
import type { DevChain } from "@bench-bounty/devchain";
import { describe, expect, it } from "vitest";
import { chainConfig, genesisOf, openedBeforeOutage, openTemp, rejection, useDevChain } from "./helpers.js";

const devChain = useDevChain();

const rpc = (dc: DevChain, method: string, params: unknown[] = []) =>
  dc.publicClient.request({ method: method as never, params: params as never });

describe("withdrawal addresses running the protocol's code (probe26 C-F7)", () => {
  it("refuses a copy of BenchmarkBounty or AnchorRegistry at another address, allows other code", async () => {
    const dc = devChain();
    const p = await openTemp({ chain: chainConfig(dc, 1) }).then((h) => h.real);
    const alice = await p.authenticate((await p.createAccount({ name: "alice" })).api_key);
    const copies = {
      BenchmarkBounty: "0x00000000000000000000000000000000000b0b01",
      AnchorRegistry: "0x00000000000000000000000000000000000b0b02",
    } as const;
    await rpc(dc, "hardhat_setCode", [
      copies.BenchmarkBounty,
      await rpc(dc, "eth_getCode", [dc.contracts.benchmarkBounty, "latest"]),
    ]);
    await rpc(dc, "hardhat_setCode", [
      copies.AnchorRegistry,
      await rpc(dc, "eth_getCode", [dc.contracts.anchorRegistry, "latest"]),
    ]);
    for (const [contract, address] of Object.entries(copies)) {
      for (const attempt of [
        () => p.registerAgent(alice, "a1", { withdrawal_address: address }),
        () => p.setAccountWithdrawalAddress(alice, address),
        // probe28 C-F3's audit: an account created with its first agent's address (REST `POST /accounts`,
        // MCP `register`) recorded such a payee on the address rule alone
        () => p.createAccount({ name: "bob", agent: { withdrawal_address: address } }),
      ]) {
        const refused = await rejection(attempt());
        expect(refused).toMatchObject({
          code: "invalid_withdrawal_address",
          details: { field: "withdrawal_address", reason: "platform_contract" },
        });
        expect(refused.message).toBe(
          `withdrawal_address: ${address} runs the protocol's ${contract} code (a deployment at another address): it can never claim, credit there is lost`,
        );
      }
    }
    // nothing was written: alice has no agent, no account bob was created (the name is free)
    expect(await p.myAgents(alice)).toEqual([]);
    expect((await p.createAccount({ name: "bob" })).account.name).toBe("bob");
    // a smart-contract wallet (other code) and a plain account are allowed
    const wallet = "0x00000000000000000000000000000000000b0b03";
    await rpc(dc, "hardhat_setCode", [wallet, "0x6080604052348015600f57600080fd5b00"]);
    expect((await p.registerAgent(alice, "a1", { withdrawal_address: wallet })).withdrawal_address).toBe(
      wallet,
    );
    const refusedSet = await rejection(p.setWithdrawalAddress(alice, "a1", copies.BenchmarkBounty));
    expect(refusedSet.details).toMatchObject({ reason: "platform_contract" });
    const plain = dc.accounts[5]!.address.toLowerCase();
    expect((await p.setWithdrawalAddress(alice, "a1", plain)).withdrawal_address).toBe(plain);
  });

  it("with a chain that cannot be read, an address is refused chain_error and nothing is written (review of probe26 C-F7)", async () => {
    const dc = devChain();
    const p = await openedBeforeOutage(await genesisOf(dc), () =>
      openTemp({ chain: { ...chainConfig(dc, 1), rpcUrl: "http://127.0.0.1:9" } }),
    ).then((h) => h.real);
    const alice = await p.authenticate((await p.createAccount({ name: "alice" })).api_key);
    const plain = dc.accounts[5]!.address;
    for (const attempt of [
      () => p.registerAgent(alice, "a1", { withdrawal_address: plain }),
      () => p.setAccountWithdrawalAddress(alice, plain),
      () => p.createAccount({ name: "bob", agent: { withdrawal_address: plain } }),
    ]) {
      const refused = await rejection(attempt());
      expect(refused).toMatchObject({ code: "chain_error" });
      expect(refused.message).toMatch(/read an address's code/);
    }
    expect(await p.myAgents(alice)).toEqual([]);
    // an agent without an address needs no chain read
    expect((await p.registerAgent(alice, "a2")).agent_id).toBe("a2");
    const refusedSet = await rejection(p.setWithdrawalAddress(alice, "a2", plain));
    expect(refusedSet.code).toBe("chain_error");
    expect((await p.myAgents(alice)).map((a) => a.withdrawal_address ?? null)).toEqual([null]);
  });
});
