#!/usr/bin/env node
// Seasonal rule on the date alone: October to March is "rain", April to
// September "sun" (it ignores the day's observations).
import { readObservations, runAgent } from "./lib.mjs";

await runAgent({
  name: "seasonal-rule",
  msPerTask: 6,
  answer(prompt) {
    const { month } = readObservations(prompt);
    if (month === undefined) return "sun";
    return month >= 10 || month <= 3 ? "rain" : "sun";
  },
});
