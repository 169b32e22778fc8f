#!/usr/bin/env node
// Precipitation rule: any precipitation means "rain", none means "sun".
import { readObservations, runAgent } from "./lib.mjs";

await runAgent({
  name: "precipitation-rule",
  msPerTask: 12,
  answer(prompt) {
    const { precipitation } = readObservations(prompt);
    return precipitation !== undefined && precipitation > 0 ? "rain" : "sun";
  },
});
