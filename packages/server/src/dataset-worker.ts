/** Worker thread of {@link DatasetChecker}: answers each `{id, job, payload}` with {@link answerOf}. */
import { parentPort } from "node:worker_threads";
import { answerOf, type DatasetJob, type JobPayload } from "./dataset-check.js";

if (!parentPort) throw new Error("dataset-worker runs as a worker thread");
const port = parentPort;
port.on("message", (m: { id: number; job: DatasetJob; payload: JobPayload }) =>
  port.postMessage(answerOf(m.id, m.job, m.payload)),
);
