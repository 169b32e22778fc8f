/** Worker thread of {@link DatasetChecker}: answers each `{id, job, payload}` with {@link answerOf}. */
import { parentPort, workerData } from "node:worker_threads";
import { setNativeKeccakGate } from "@bench-bounty/evidence";
import { answerOf, nativeGate, type DatasetJob, type JobPayload, type WorkerFlags } from "./dataset-check.js";

if (!parentPort) throw new Error("dataset-worker runs as a worker thread");
const port = parentPort;
// every native hash marked, so that the worker is terminated only outside one (probe31 A-F6)
setNativeKeccakGate(nativeGate(workerData as WorkerFlags));
port.on("message", (m: { id: number; job: DatasetJob; payload: JobPayload }) =>
  port.postMessage(answerOf(m.id, m.job, m.payload)),
);
