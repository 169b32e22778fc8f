/**
 * The MCP server uses only the public API of @modelcontextprotocol/sdk (probe16 review): no override of
 * the SDK's `McpServer.validateToolInput` and no read or write of a private (`_`-prefixed) member such as
 * `_requestHandlers` or `_registeredTools`, which an SDK upgrade may rename or drop without notice. The
 * MCP protocol's own `_meta` field is public. Behaviour (argument refusals naming the JSON path, the
 * unknown-tool refusal, the cached tool list) is asserted by the other `mcp*` tests.
 */
import fs from "node:fs";
import { describe, expect, it } from "vitest";

const MCP_SOURCES = ["endpoint.ts", "paths.ts", "tools.ts"];

/** `_`-prefixed member names used in `source` (comments removed), other than the protocol's `_meta`. */
function privateMembers(source: string): string[] {
  const code = source.replace(/\/\*[\s\S]*?\*\//g, "").replace(/\/\/.*$/gm, "");
  return [...code.matchAll(/(?:\.|\[\s*["'])(_[A-Za-z]\w*)/g)]
    .map((m) => m[1]!)
    .filter((name) => name !== "_meta");
}

describe("the MCP server uses the SDK's public API only", () => {
  it.each(MCP_SOURCES)("src/mcp/%s reads no private SDK member and overrides no SDK method", (file) => {
    const source = fs.readFileSync(new URL(`../src/mcp/${file}`, import.meta.url), "utf8");
    expect(privateMembers(source)).toEqual([]);
    expect(source).not.toMatch(/validateToolInput|_requestHandlers|_registeredTools/);
  });
});

describe("the validation of bodies and tool arguments uses zod's public API only", () => {
  it("src/route.ts reads a schema's definition through its public def, not zod's internal _zod", () => {
    const source = fs.readFileSync(new URL("../src/route.ts", import.meta.url), "utf8");
    expect(privateMembers(source)).toEqual([]);
  });
});
