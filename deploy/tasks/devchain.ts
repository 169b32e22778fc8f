/**
 * The local Base profile inside `hardhat node` (used by @bench-bounty/devchain).
 *
 * `BENCH_BOUNTY_DEVCHAIN=profile npx hardhat node`: once the JSON-RPC server is
 * up, the node places the test USDC at the Base USDC address (the local Base
 * profile of SPEC 1.3); deploy the contracts yourself with `bounty:deploy`.
 *
 * `BENCH_BOUNTY_DEVCHAIN=1`: the same, plus CreateX and both contracts deployed
 * with the Ignition module; the node then prints one line
 * `BENCH_BOUNTY_DEVCHAIN_READY {json}` (or `BENCH_BOUNTY_DEVCHAIN_FAILED message`
 * and exits 1). With `BENCH_BOUNTY_DEVCHAIN_PARENT_PID` set, the node
 * exits as soon as that process is gone, so a crashed test never leaves a node behind.
 */
import { subtask } from "hardhat/config";
import { TASK_NODE_SERVER_READY } from "hardhat/builtin-tasks/task-names";

subtask(TASK_NODE_SERVER_READY).setAction(async (args: { address: string; port: number }, hre, runSuper) => {
  await runSuper(args);
  const mode = process.env.BENCH_BOUNTY_DEVCHAIN;
  if (mode !== "1" && mode !== "profile") return;

  const parentPid = Number(process.env.BENCH_BOUNTY_DEVCHAIN_PARENT_PID ?? "0");
  if (parentPid > 0) {
    setInterval(() => {
      try {
        process.kill(parentPid, 0);
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== "ESRCH") throw e;
        process.exit(0); // the parent is gone
      }
    }, 1000).unref();
  }

  try {
    const { placeCreateX, placeTestUsdc, deployWithIgnition } = await import("../lib/local-chain");
    if (mode === "profile") {
      const usdc = await placeTestUsdc(hre);
      // the next command as it pastes: a node on another port than the default needs LOCAL_RPC_URL (probe27
      // C-F2 class: printed commands must work when pasted)
      const { DEFAULT_LOCAL_RPC_URL } = await import("../lib/network");
      const url = `http://${args.address}:${args.port}`;
      const env = url === DEFAULT_LOCAL_RPC_URL ? "" : `LOCAL_RPC_URL=${url} `;
      console.log(
        `Local Base profile: test USDC placed at ${usdc}. Next: ${env}npx hardhat bounty:deploy --network localhost`,
      );
      return;
    }
    await placeCreateX(hre);
    const usdc = await placeTestUsdc(hre);
    const deployed = await deployWithIgnition(hre);
    const ready = {
      rpcUrl: `http://${args.address}:${args.port}`,
      chainId: Number(await hre.network.provider.request({ method: "eth_chainId" })),
      usdc,
      benchmarkBounty: deployed.benchmarkBounty,
      anchorRegistry: deployed.anchorRegistry,
      startBlock: deployed.startBlock,
    };
    console.log(`BENCH_BOUNTY_DEVCHAIN_READY ${JSON.stringify(ready)}`);
  } catch (e) {
    console.log(`BENCH_BOUNTY_DEVCHAIN_FAILED ${(e as Error).message.replace(/\s+/g, " ")}`);
    process.exit(1);
  }
});
