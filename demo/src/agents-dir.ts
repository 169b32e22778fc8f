/** Where the demo's CLI agents live. */
import { fileURLToPath } from "node:url";

/** Directory of the CLI agents (`demo/agents/*.mjs`). */
export const AGENTS_DIR = fileURLToPath(new URL("../agents/", import.meta.url));
