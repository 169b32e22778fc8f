#!/usr/bin/env node
// Baseline agent: Seattle or not, it always answers "sun".
import { runAgent } from "./lib.mjs";

await runAgent({ name: "always-sun", msPerTask: 2, answer: () => "sun" });
