/**
 * The agents of `bench:api`'s full runs in their own thread (the default; `--agents-in-process` plays
 * them on the server's event loop instead): as remote agents would, they do not share the server's
 * event loop, only the machine's two cores. The finalize latencies (ms) are posted back.
 */
import { parentPort, workerData } from "node:worker_threads";
import { playUntil } from "./full-run.mjs";

const { url, slug, keys, until } = workerData;
parentPort.postMessage(await playUntil(url, slug, keys, until));
