/**
 * Registers the bench-bounty Hardhat tasks (issue 6); required by hardhat.config.ts.
 * Nothing here may fail at load time: runtime dependencies (the ESM packages,
 * artifacts, TypeChain factories) are loaded inside the task actions, and only
 * types are imported at the top of the task files.
 */
import { extendProvider } from "hardhat/config";
import { endArgumentErrorsWithoutStack, endOutputQuietlyOnClosedPipe } from "../lib/errors";
import { CheckedViewsProvider } from "../lib/view-answers";
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
// A view answer that is not its ABI value is the RPC endpoint's failure, one line naming the view and the
// member (probe40 C-F1): every eth_call of an RPC endpoint is checked (the in-process network is no endpoint).
extendProvider((provider, _config, network) =>
  network === "hardhat" ? provider : new CheckedViewsProvider(provider),
);
