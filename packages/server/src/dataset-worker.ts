/** Worker thread of {@link DatasetChecker}: answers each `{id, bytes}` with {@link answerOf}. */
import { parentPort } from "node:worker_threads";
import { answerOf, type DatasetJob } from "./dataset-check.js";

if (!parentPort) throw new Error("dataset-worker runs as a worker thread");
const port = parentPort;
port.on("message", (m: { id: number; job: DatasetJob; bytes: Uint8Array }) =>
  port.postMessage(answerOf(m.id, m.job, m.bytes)),
);
