/** Name of this package. */
export const VERIFIER_NAME = "@bench-bounty/verifier";
/** Version of this package (kept in step with package.json). */
export const VERIFIER_VERSION = "0.1.0";
