#!/usr/bin/env node
// Installs and builds everything the demo and the tests need.
import { setup } from "./lib/run.mjs";
setup();
