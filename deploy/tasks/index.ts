/**
 * Registers the bench-bounty Hardhat tasks (issue 6); required by hardhat.config.ts.
 * Nothing here may fail at load time: runtime dependencies (the ESM packages,
 * artifacts) are loaded inside the task actions.
 */
import "./devchain";
