#!/usr/bin/env node
// Precipitation-and-temperature rule that knows snow: precipitation on a day
// whose minimum is at or below freezing and whose maximum stays at or below
// 6 °C is "snow", other precipitation "rain", a dry day "sun".
import { readObservations, runAgent } from "./lib.mjs";

await runAgent({
  name: "precip-temp-snow",
  msPerTask: 20,
  answer(prompt) {
    const { precipitation, tempMin, tempMax } = readObservations(prompt);
    if (precipitation === undefined || precipitation <= 0) return "sun";
    if (tempMin !== undefined && tempMax !== undefined && tempMin <= 0 && tempMax <= 6) return "snow";
    return "rain";
  },
});
