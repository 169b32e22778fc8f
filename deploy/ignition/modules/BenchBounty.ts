import { buildModule } from "@nomicfoundation/hardhat-ignition/modules";

/**
 * Deploys the two bench-bounty contracts (SPEC 1). Neither takes constructor
 * arguments nor has an owner. Deploy it with the `create2` strategy (the salt
 * is set in hardhat.config.ts from `packages/contracts/create2.json`, exported as `DEPLOYMENT_SALT` by @bench-bounty/contracts) so the addresses
 * are the same on every chain; `npx hardhat bounty:deploy` does that and
 * records the result in `packages/contracts/deployments.json`.
 */
const BenchBountyModule = buildModule("BenchBounty", (m) => {
  const benchmarkBounty = m.contract("BenchmarkBounty");
  const anchorRegistry = m.contract("AnchorRegistry");
  return { benchmarkBounty, anchorRegistry };
});

export default BenchBountyModule;
