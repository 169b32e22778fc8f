/**
 * `@bench-bounty/server`: the HTTP edge of the platform (Hono): REST routes per resource, identity,
 * limits, one error table, OpenAPI 3.1, the evidence door, MCP over Streamable HTTP, the byte-static
 * script and the how-to documents. The domain is `@bench-bounty/platform`; this package never
 * decides a rule of it.
 *
 * @packageDocumentation
 */
export * from "./errors.js";
export * from "./domain.js";
export { createApp, DEFAULT_BASE_URL, type AppOptions } from "./app.js";
export {
  DEFAULT_TIMEOUTS,
  listenUrlOf,
  serveApp,
  type ListeningServer,
  type ServerTimeouts,
} from "./serve.js";
export {
  AccountCreationLimiter,
  addressGroupOf,
  networkGroupOf,
  DEFAULT_LIMITS,
  RateLimiter,
  type Limits,
} from "./middleware/limits.js";
export { apiKeyOf } from "./middleware/auth.js";
export { MCP_SERVER_INFO } from "./mcp/endpoint.js";
export { RUN_BENCHMARK_SH, SHA256SUMS, TUTORIALS } from "./routes/static.js";
export { webApp, webMiddleware, type PublicWebConfig, type WebConfig, type WebHook } from "./web.js";
export {
  closeDatasetWorker,
  platformDomain,
  versionOf,
  type PlatformDomainOptions,
} from "./platform-domain.js";
export * from "./verification/worker.js";
export { MemoryVerificationJobs } from "./verification/memory-jobs.js";
export { jobViewOf, storeVerificationQueue } from "./verification/store-jobs.js";
export {
  startVerifier,
  enqueuePackedAwards,
  packSweep,
  PACK_SWEEP_MS,
  verifierDeps,
  INDEXER_SETTLE_ATTEMPTS,
  type VerifierOptions,
} from "./verification/runtime.js";
export { verificationView, WORKER_POLICY, type StoredVerification } from "./verification/view.js";
