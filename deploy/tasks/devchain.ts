/**
 * The local Base profile inside `hardhat node` (used by @bench-bounty/devchain).
 *
 * When the environment has `BENCH_BOUNTY_DEVCHAIN=1`, the node, once its
 * JSON-RPC server is up, places CreateX and the test USDC (at the Base USDC
 * address) and deploys both contracts with the Ignition module, then prints one
 * line `BENCH_BOUNTY_DEVCHAIN_READY {json}` (or `BENCH_BOUNTY_DEVCHAIN_FAILED
 * message` and exits 1). With `BENCH_BOUNTY_DEVCHAIN_PARENT_PID` set, the node
 * exits as soon as that process is gone, so a crashed test never leaves a node behind.
 */
import { subtask } from "hardhat/config";
import { TASK_NODE_SERVER_READY } from "hardhat/builtin-tasks/task-names";

subtask(TASK_NODE_SERVER_READY).setAction(async (args: { address: string; port: number }, hre, runSuper) => {
  await runSuper(args);
  if (process.env.BENCH_BOUNTY_DEVCHAIN !== "1") return;

  const parentPid = Number(process.env.BENCH_BOUNTY_DEVCHAIN_PARENT_PID ?? "0");
  if (parentPid > 0) {
    setInterval(() => {
      try {
        process.kill(parentPid, 0);
      } catch {
        process.exit(0);
      }
    }, 1000).unref();
  }

  try {
    const { placeCreateX, placeTestUsdc, deployWithIgnition } = await import("../lib/local-chain");
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
