/**
 * The guard of the one Hardhat patch of deploy/ (`endArgumentErrorsWithoutStack`
 * in deploy/lib/errors.ts, issue 14 item 7): it wraps an internal of the Hardhat 2
 * CLI, so this test fails loudly on a Hardhat upgrade, naming what to re-check,
 * before anyone meets a changed behaviour. The behaviour itself (one line, exit
 * 1, no stack) is tested end to end by cli-arguments.test.ts.
 */
import fs from "node:fs";
import path from "node:path";
import { expect } from "chai";
import { ARGUMENT_ERROR_PATCH_CHECKED_ON, isArgumentError } from "../lib/errors";

const RECHECK =
  "re-check endArgumentErrorsWithoutStack (deploy/lib/errors.ts) against hardhat/internal/cli/cli.js, then update ARGUMENT_ERROR_PATCH_CHECKED_ON";

describe("the Hardhat internals the argument-error patch relies on", function () {
  const hardhatDir = path.dirname(require.resolve("hardhat/package.json"));

  it(`Hardhat is the version the patch was checked on (${ARGUMENT_ERROR_PATCH_CHECKED_ON})`, function () {
    const { version } = JSON.parse(fs.readFileSync(path.join(hardhatDir, "package.json"), "utf8")) as {
      version: string;
    };
    expect(version, `Hardhat is now ${version}: ${RECHECK}`).to.equal(ARGUMENT_ERROR_PATCH_CHECKED_ON);
  });

  it("the CLI reports the error to Reporter.reportError after its message line and before the stack", function () {
    const cli = fs.readFileSync(path.join(hardhatDir, "internal", "cli", "cli.js"), "utf8");
    const message = cli.indexOf("error.message.replace(");
    const report = cli.indexOf("Reporter.reportError(error)");
    const stack = cli.indexOf("console.error(error)", report);
    expect(message, `cli.js no longer prints the message line as expected: ${RECHECK}`).to.be.greaterThan(0);
    expect(report, `cli.js no longer calls Reporter.reportError after it: ${RECHECK}`).to.be.greaterThan(
      message,
    );
    expect(stack, `cli.js no longer prints the stack after reportError: ${RECHECK}`).to.be.greaterThan(
      report,
    );
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- the internal the patch wraps
    const { Reporter } = require("hardhat/internal/sentry/reporter") as {
      Reporter: { reportError?: unknown };
    };
    expect(typeof Reporter.reportError, `Reporter.reportError is gone: ${RECHECK}`).to.equal("function");
  });

  it("argument errors are still recognised by their descriptors", function () {
    const { HardhatError } =
      // eslint-disable-next-line @typescript-eslint/no-require-imports -- the internals isArgumentError reads, loaded as it loads them
      require("hardhat/internal/core/errors") as typeof import("hardhat/internal/core/errors");
    const { ERRORS } =
      // eslint-disable-next-line @typescript-eslint/no-require-imports -- the internals isArgumentError reads, loaded as it loads them
      require("hardhat/internal/core/errors-list") as typeof import("hardhat/internal/core/errors-list");
    expect(
      isArgumentError(new HardhatError(ERRORS.ARGUMENTS.UNRECOGNIZED_PARAM_NAME, { param: "--x" })),
      RECHECK,
    ).to.equal(true);
    expect(
      isArgumentError(new HardhatError(ERRORS.NETWORK.CONFIG_NOT_FOUND, { network: "x" })),
      RECHECK,
    ).to.equal(true);
    expect(isArgumentError(new Error("other"))).to.equal(false);
  });
});
