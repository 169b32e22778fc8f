/** The Hono environment of the app: what the middleware puts on the context. */
import type { Domain, Principal } from "./domain.js";
import type { BodyBudget } from "./node-body.js";

export interface AppEnv {
  Variables: {
    /** The caller (null: anonymous, no key was sent). */
    principal: Principal | null;
    /** The key that authenticated the caller, or null (rate limits count per key). */
    apiKey: string | null;
    domain: Domain;
    /** Base URL printed in `how_to_compete` (the configured public URL, else the request's origin). */
    baseUrl: string;
    /** What the request's body may take (set by the body-limit middleware on every request but GET and HEAD). */
    bodyBudget: BodyBudget | undefined;
    /**
     * Latest moment (unix ms) the request's waits for an anchor batch may last (`FinalizeOptions.revealBy`):
     * half the request's time limit after it started, so that the rest of the request fits the other half
     * (probe15 A-F9; set by `limitTime`). Every write of the request ends its lock waits by it too (platform
     * `WriteHow.answerBy`; probe19 A-F3): past it 503 `server_busy`, nothing written.
     */
    revealBy: number;
    /**
     * Latest moment (unix ms) an award call answers (platform `AwardHow.answerBy`): three quarters of the
     * request's time limit after it started (45 s of 60 s), its chain reads, transaction wait and pack
     * minting included, so it answers `award_pending` / `server_busy`, never `request_timeout` (probe16
     * A-F3; set by `limitTime`). A relayed claim has the same deadline for its turn, its send and its
     * receipt wait (`claim_pending` / `server_busy`, probe24 C-F2).
     */
    awardBy: number;
    /**
     * The request's own time limit (unix ms, its start plus the limit; set by `limitTime`): past it the
     * request was answered 503 `request_timeout`, and work still running for it where it can be stopped (a
     * dataset job in the dataset worker) is stopped (probe30 B-F5).
     */
    endsAt: number;
    /**
     * Takes `bytes` from the caller's bucket of dataset bytes (`Limits.datasetBytesBurst`; set by the
     * body-limit middleware): what a publish's planning costs, per try, like a dataset body (probe17
     * A-F3). @throws EdgeError `rate_limited` (429, `details.limit: "dataset_bytes"`)
     */
    chargeDatasetBytes: (bytes: number) => void;
    /**
     * Takes `bytes` from the same bucket whether they are there or not (what is missing is owed: the
     * caller's next dataset body or planning waits until it is paid back, `RateLimiter.owe`): the test
     * set a planning rendered beyond the stored rows it was charged for (a template repeating a field).
     */
    oweDatasetBytes: (bytes: number) => void;
    /**
     * Refuses a read at once when its answer, at least `minBytes` long, would be refused by the
     * answer-bytes charge (`chargeAnswerBytes`): called by a handler before it builds a large answer, so a
     * caller out of tokens costs no build (probe26 A-F3: a refused 240 MB tasks read built it, ~2.2 s).
     * A no-op for writes (their answers are owed, never refused). Set by `chargeAnswerBytes`.
     * @throws EdgeError `rate_limited` (429, `details.limit: "answer_bytes"`)
     */
    admitAnswer: (minBytes: number) => void;
  };
}
