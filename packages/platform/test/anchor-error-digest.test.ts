/**
 * probe39 A-F1: with the platform account unable to pay gas, an immediate anchoring failed with the text
 * "anchor commitment 0x<root>: the platform account ... holds no ETH ...", served whole as the publish's
 * `commitment_anchor_error` (and "anchor receipt 0x<hash>: ..." as a finalize's `receipt_anchor_error`,
 * printed by the CLI's warnings and by `anchor`) while the answer said `commit_root: null`: whoever read
 * it could anchor the root first with another kind, and the benchmark could never carry a verifiable
 * bounty. Now the anchoring's error names the kind and the failure, never a digest it has not anchored.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Hex } from "viem";
import { afterEach, describe, expect, it, vi } from "vitest";
import { withoutWithheldHex } from "../src/chain.js";
import { echoingProxy } from "../src/testing.js";
import {
  CITIES_PUBLISH,
  chainConfig,
  cities,
  cliAccount,
  devChainArgs,
  helperAddress,
  openAt,
  openTemp,
  runCli,
  tempDir,
  useDevChain,
} from "./helpers.js";

const devChain = useDevChain();
const AGENT = fileURLToPath(new URL("./fixtures/agent.mjs", import.meta.url));

afterEach(() => {
  vi.unstubAllEnvs();
});

/** Sets the ETH balance (wei) of `address` on the devchain: 0 is a drained platform wallet. */
async function setBalance(dc: ReturnType<typeof devChain>, address: string, wei: bigint): Promise<void> {
  await dc.publicClient.request({
    method: "hardhat_setBalance",
    params: [address, `0x${wei.toString(16)}`],
  } as never);
}

/** Whether `text` names `digest` (its 64 hex digits, any case, with or without 0x). */
function names(text: string, digest: Hex): boolean {
  return text.toLowerCase().includes(digest.slice(2).toLowerCase());
}

describe("an anchoring that fails names no withheld digest (probe39 A-F1)", { timeout: 240_000 }, () => {
  it("publish and finalize (immediate, the signer drained): neither answer carries the root or the receipt hash", async () => {
    const dc = devChain();
    const account = dc.accounts[4]!.address;
    const platform = await openTemp({ chain: chainConfig(dc, 4) });
    try {
      await setBalance(dc, account, 0n);
      const ds = await platform.createDataset(cities(4, "drained"));
      const published = await platform.publish(ds.dataset_id, CITIES_PUBLISH);
      const root = await platform.storedCommitRoot(published.slug);
      expect(published).toMatchObject({ commit_root: null, commitment_anchor_status: "pending" });
      expect(names(JSON.stringify(published), root)).toBe(false);
      expect(published.commitment_anchor_error).toMatch(/^anchor commitment: .*holds no ETH/);

      const run = (await platform.startRun(published.slug, "alice")).run.id;
      const finalized = await platform.finalize(run);
      const receipt = await platform.storedReceiptHash(run);
      expect(finalized).toMatchObject({ receipt_hash: null, receipt_anchor_status: "pending" });
      expect(names(JSON.stringify(finalized), receipt)).toBe(false);
      expect(names(JSON.stringify(finalized), root)).toBe(false);
      expect(finalized.receipt_anchor_error).toMatch(/^anchor receipt: .*holds no ETH/);

      // `anchor`'s refusal (the operator's retry) names neither
      const refused = await platform.anchorCommitment(published.slug).catch((e: unknown) => e);
      expect(refused).toMatchObject({ code: "chain_error" });
      const text = JSON.stringify({ message: (refused as Error).message, ...(refused as object) });
      expect(names(text, root)).toBe(false);
    } finally {
      await setBalance(dc, account, 10n ** 22n);
      await platform.close();
    }
  });

  it("an RPC failure whose text echoes the call's arguments is served without the digest", async () => {
    const dc = devChain();
    const platform = await openTemp({ chain: chainConfig(dc, 6) });
    try {
      // a node that quotes the call it refuses (its words reach the served text: rpcRefusalOf, failure)
      const gateway = platform.chain! as unknown as {
        publicClient: { simulateContract: (a: never) => unknown };
      };
      vi.spyOn(gateway.publicClient, "simulateContract").mockImplementation((a: never) => {
        const { args } = a as { args: readonly unknown[] };
        throw new Error(`node refused eth_call anchor(${String(args[0]).toUpperCase()}, ${String(args[1])})`);
      });
      const ds = await platform.createDataset(cities(4, "echo"));
      const published = await platform.publish(ds.dataset_id, CITIES_PUBLISH);
      const root = await platform.storedCommitRoot(published.slug);
      expect(names(JSON.stringify(published), root)).toBe(false);
      expect(published).toMatchObject({ commit_root: null, commitment_anchor_status: "pending" });
      expect(published.commitment_anchor_error).toMatch(
        /^anchor commitment failed: node refused eth_call anchor\(the commitment digest, 0x[0-9a-f]{64}\) \(the chain RPC\)$/,
      );
    } finally {
      vi.restoreAllMocks();
      await platform.close();
    }
  });

  it("the CLI's publish, run and anchor print neither the root nor the receipt hash", async () => {
    const dc = devChain();
    const account = dc.accounts[5]!.address;
    vi.stubEnv("BENCH_BOUNTY_PRIVATE_KEY", dc.accounts[5]!.privateKey);
    const store = join(tempDir(), "store");
    const csv = join(tempDir(), "rows.csv");
    writeFileSync(
      csv,
      "date,temp,weather\n2026-01-01,3,rain\n2026-01-02,5,sun\n2026-01-03,4,fog\n2026-01-04,6,snow\n",
    );
    const chain = devChainArgs(dc);
    await setBalance(dc, account, 0n);
    try {
      const pub = await runCli(
        ...["publish", csv, "--label", "weather", "--decision-ts", "date", "--slug", "drained"],
        ...["--title", "t", "--template", "Temp {payload.temp} on {payload.date}?", "--grader", "exact"],
        ...["--store", store, ...chain],
      );
      expect(pub.code, pub.err).toBe(0);
      expect(pub.err).toMatch(/warning: the commitment of drained was not anchored /);
      const key = await cliAccount(store, "drained-bot");
      const run = await runCli(
        ...["run", "drained", "--store", store, "--api-key", key, "--agent", `node ${AGENT}`],
        ...["--agent-id", "bot", "--withdrawal-address", helperAddress("drained-bot"), "--no-progress"],
        ...chain,
      );
      expect(run.code, run.err).toBe(0);
      expect(run.err).toMatch(/warning: the receipt of run .* was not anchored /);
      const anchor = await runCli("anchor", "drained", "--store", store, ...chain);
      expect(anchor.code).toBe(1);
      expect(anchor.err).toMatch(/chain_error/);

      const h = await openAt({ dir: store });
      let root: Hex;
      let receipt: Hex;
      try {
        root = await h.storedCommitRoot("drained");
        receipt = await h.storedReceiptHash((JSON.parse(run.out) as { run_id: string }).run_id);
      } finally {
        await h.close();
      }
      for (const [what, r] of Object.entries({ pub, run, anchor })) {
        expect(names(r.out + r.err, root), `${what} names the root`).toBe(false);
        expect(names(r.out + r.err, receipt), `${what} names the receipt hash`).toBe(false);
      }
      // the failure itself is told: the kind and why
      expect(pub.err).toMatch(/not anchored .*: anchor commitment: .*holds no ETH/);
      expect(run.err).toMatch(/not anchored .*: anchor receipt: .*holds no ETH/);
    } finally {
      await setBalance(dc, account, 10n ** 22n);
    }
  });
});

/** Whether `text` carries a run of 8 of the hex digits of `digest` (a cut or folded digest leaks too). */
function leaksPart(text: string, digest: Hex): boolean {
  const low = text.toLowerCase();
  const hex = digest.slice(2).toLowerCase();
  for (let i = 0; i + 8 <= hex.length; i++) if (low.includes(hex.slice(i, i + 8))) return true;
  return false;
}

describe(
  "an anchoring's served failure leads to no withheld digest (probe40 V-F1, V-F5)",
  { timeout: 240_000 },
  () => {
    it("withoutWithheldHex says every run of 8+ digits of a digest or an anchor transaction, whole, cut, folded or upper-case", () => {
      const d = "6d97f36bc4c164bfa401f0df75148b841cd21f91a60c8cf16cd628ef0666dea5";
      const tx = "a23df255671d18c2c8aa693a79e05ee0a8e1337a385dccd81b9795eeb81f0e8d";
      const w = { kind: "commitment" as const, digests: [d], txs: new Set([tx]) };
      expect(withoutWithheldHex(`refused 0x${d.slice(0, 62)}`, w)).toBe("refused the commitment digest");
      expect(withoutWithheldHex(`x ${d.slice(2, 10).toUpperCase()} y`, w)).toBe("x the commitment digest y");
      expect(withoutWithheldHex(`0xa21f3c6a${d.slice(0, 30)}\n  ${d.slice(30)}`, w)).toBe(
        "0xa21f3c6athe commitment digest\n  the commitment digest",
      );
      expect(withoutWithheldHex(`transaction 0x${tx} reverted`, w)).toBe(
        "transaction [withheld: an anchor transaction] reverted",
      );
      // 7 digits in a row, or hex of neither, are left as they are
      expect(withoutWithheldHex(`${d.slice(0, 7)} 0x${"ab".repeat(32)}`, w)).toBe(
        `${d.slice(0, 7)} 0x${"ab".repeat(32)}`,
      );
    });

    it.each(["cut", "wrap"] as const)(
      "an RPC refusal echoing the digest (%s) serves no run of 8 of its digits, in publish, finalize and anchor",
      async (mode) => {
        const dc = devChain();
        const proxy = await echoingProxy(dc.rpcUrl, mode);
        const platform = await openTemp({ chain: { ...chainConfig(dc, 7), rpcUrl: proxy.url } });
        try {
          const ds = await platform.createDataset(cities(4, `echo-${mode}`));
          const published = await platform.publish(ds.dataset_id, CITIES_PUBLISH);
          const root = await platform.storedCommitRoot(published.slug);
          expect(published).toMatchObject({ commit_root: null, commitment_anchor_status: "pending" });
          expect(published.commitment_anchor_error).toMatch(/JSON-RPC error -32000 .*the commitment digest/s);
          expect(leaksPart(JSON.stringify(published), root)).toBe(false);

          const run = (await platform.startRun(published.slug, "alice")).run.id;
          const finalized = await platform.finalize(run);
          const receipt = await platform.storedReceiptHash(run);
          expect(finalized).toMatchObject({ receipt_hash: null, receipt_anchor_status: "pending" });
          expect(finalized.receipt_anchor_error).toMatch(/JSON-RPC error -32000 .*the receipt digest/s);
          expect(leaksPart(JSON.stringify(finalized), receipt)).toBe(false);

          const refused = await platform.anchorCommitment(published.slug).catch((e: unknown) => e);
          expect(refused).toMatchObject({ code: "chain_error" });
          const text = JSON.stringify({ message: (refused as Error).message, ...(refused as object) });
          expect(leaksPart(text, root)).toBe(false);
        } finally {
          await platform.close();
          await proxy.close();
        }
      },
    );

    it("the CLI's publish and anchor through an RPC echoing the digest cut at its bound print no run of 8 of its digits", async () => {
      const dc = devChain();
      const proxy = await echoingProxy(dc.rpcUrl, "cut");
      vi.stubEnv("BENCH_BOUNTY_PRIVATE_KEY", dc.accounts[9]!.privateKey);
      const store = join(tempDir(), "store");
      const csv = join(tempDir(), "rows.csv");
      writeFileSync(
        csv,
        "date,temp,weather\n2026-01-01,3,rain\n2026-01-02,5,sun\n2026-01-03,4,fog\n2026-01-04,6,snow\n",
      );
      const chain = [...devChainArgs(dc, { rpc: false }), "--rpc-url", proxy.url];
      try {
        const pub = await runCli(
          ...["publish", csv, "--label", "weather", "--decision-ts", "date", "--slug", "echo-cut"],
          ...["--title", "t", "--template", "Temp {payload.temp} on {payload.date}?", "--grader", "exact"],
          ...["--store", store, ...chain],
        );
        expect(pub.code, pub.err).toBe(0);
        expect(pub.err).toMatch(
          /warning: the commitment of echo-cut was not anchored .*JSON-RPC error -32000 .*the commitment digest/,
        );
        const anchor = await runCli("anchor", "echo-cut", "--store", store, ...chain);
        expect(anchor.code).toBe(1);
        expect(anchor.err).toMatch(/the commitment digest/);
        const h = await openAt({ dir: store });
        let root: Hex;
        try {
          root = await h.storedCommitRoot("echo-cut");
        } finally {
          await h.close();
        }
        for (const [what, r] of Object.entries({ pub, anchor }))
          expect(leaksPart(r.out + r.err, root), `${what}: ${r.err}`).toBe(false);
      } finally {
        await proxy.close();
      }
    });

    it("an anchor transaction still pending (automine off) is not named in the publish's or the finalize's answer", async () => {
      const dc = devChain();
      const automine = (on: boolean) =>
        dc.publicClient.request({ method: "evm_setAutomine", params: [on] } as never);
      const logged: string[] = [];
      const platform = await openTemp({
        chain: { ...chainConfig(dc, 8), anchorWaitMs: 1_500, log: (line) => void logged.push(line) },
      });
      try {
        const ds = await platform.createDataset(cities(4, "nomine"));
        await automine(false);
        const published = await platform.publish(ds.dataset_id, CITIES_PUBLISH);
        const root = await platform.storedCommitRoot(published.slug);
        const run = (await platform.startRun(published.slug, "alice")).run.id;
        const finalized = await platform.finalize(run);
        const receipt = await platform.storedReceiptHash(run);
        const pending = (await dc.publicClient.request({
          method: "eth_getBlockByNumber",
          params: ["pending", false],
        } as never)) as { transactions: Hex[] };
        expect(pending.transactions.length).toBeGreaterThan(0);
        expect(published).toMatchObject({ commit_root: null, commitment_anchor_status: "pending" });
        expect(published.commitment_anchor_error).toMatch(/anchor transaction .*is not mined yet/);
        expect(finalized).toMatchObject({ receipt_hash: null, receipt_anchor_status: "pending" });
        expect(finalized.receipt_anchor_error).toMatch(/anchor transaction .*is not mined yet/);
        const served = JSON.stringify({ published, finalized });
        for (const tx of pending.transactions) expect(leaksPart(served, tx), `names ${tx}`).toBe(false);
        expect(leaksPart(served, root)).toBe(false);
        expect(leaksPart(served, receipt)).toBe(false);
        // the operator's log names them
        for (const tx of pending.transactions) expect(logged.join("\n")).toContain(tx);
      } finally {
        await automine(true);
        await dc.publicClient.request({ method: "evm_mine", params: [] } as never);
        await platform.close();
      }
    });
  },
);
