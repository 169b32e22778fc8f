/**
 * Revert decoding (deploy/lib/errors.ts): every custom error the two contracts
 * can raise has a sentence of what to do, and a revert carrying it is turned
 * into a TaskError naming the error and its arguments.
 */
import fs from "node:fs";
import path from "node:path";
import { expect } from "chai";
import { Interface } from "ethers";
import { ADVICE, TaskError, TokenRefusal, decodeRevert } from "../lib/errors";
import { REPO_ROOT } from "./helpers";

function iface(name: string): Interface {
  const file = path.join(REPO_ROOT, "artifacts", "contracts", `${name}.sol`, `${name}.json`);
  return new Interface((JSON.parse(fs.readFileSync(file, "utf8")) as { abi: unknown[] }).abi as never);
}

/** Example arguments for an error's inputs. */
function sampleArgs(types: readonly string[]): unknown[] {
  return types.map((t) =>
    t === "address"
      ? "0x00000000000000000000000000000000000000aa"
      : t === "bytes32"
        ? "0x" + "ab".repeat(32)
        : t === "string"
          ? "abc"
          : 3n,
  );
}

describe("revert decoding", function () {
  const ifaces = [iface("BenchmarkBounty"), iface("AnchorRegistry")];

  for (const i of ifaces) {
    i.forEachError((err) => {
      it(`${err.name}: decoded with its arguments and a sentence of what to do`, function () {
        expect(ADVICE, `advice for ${err.name}`).to.have.property(err.name);
        const data = i.encodeErrorResult(err, sampleArgs(err.inputs.map((p) => p.type)));
        // As ethers reports a failed eth_call, wrapped once.
        const decoded = decodeRevert({ info: { error: { data } } }, ifaces, "someCall");
        expect(decoded).to.be.instanceOf(TaskError);
        expect(decoded.message).to.match(new RegExp(`^someCall reverted with ${err.name}\\(`));
        expect(decoded.message.toLowerCase()).to.include(
          ADVICE[err.name]!(sampleArgs(err.inputs.map((p) => p.type))).toLowerCase(),
        );
      });
    });
  }

  it("decodes a token's Error(string) with advice", function () {
    const data = new Interface(["error Error(string)"]).encodeErrorResult("Error", [
      "Blacklistable: account is blacklisted",
    ]);
    const e = decodeRevert({ error: { data } }, ifaces, "claim");
    // probe30 C-F3: whom the token blacklists is read by the task (isBlacklisted), not guessed from the wording
    expect(e).to.be.instanceOf(TokenRefusal);
    expect(e.message).to.equal(
      "claim reverted: Blacklistable: account is blacklisted. The token refused the operation.",
    );
  });

  it("names an unreachable endpoint and passes other errors through", function () {
    expect(decodeRevert(new Error("connect ECONNREFUSED 127.0.0.1:9"), ifaces, "x").message).to.match(
      /cannot reach the RPC endpoint/,
    );
    const other = new Error("something else");
    expect(decodeRevert(other, ifaces, "x")).to.equal(other);
  });
});
