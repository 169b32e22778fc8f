/**
 * Registers the bench-bounty Hardhat tasks (issue 6); required by hardhat.config.ts.
 * Nothing here may fail at load time: runtime dependencies (the ESM packages,
 * artifacts, TypeChain factories) are loaded inside the task actions, and only
 * types are imported at the top of the task files.
 */
import { endArgumentErrorsWithoutStack, endOutputQuietlyOnClosedPipe } from "../lib/errors";
import "./devchain";
import "./deploy";
import "./lock";
import "./status";
import "./award";
import "./claim";
import "./reclaim";
import "./anchor";
import "./local";

// A wrong command line (unknown --network, missing or malformed parameter) is one line, no stack trace.
endArgumentErrorsWithoutStack();
// `| head`: a closed standard output ends the output quietly, the task keeps its exit code.
endOutputQuietlyOnClosedPipe();
