/** What {@link prepareGraphql} hands GraphQL: input depth bounded, LIKE filters literal, cursors checked. */
import { describe, expect, it } from "vitest";
import { prepareGraphql } from "../../lib/graphqlLimits";
import { QUERY_LIMITS, QueryRefused } from "../../lib/limits";

function refusal(query: string, variables?: Record<string, unknown>): QueryRefused {
  try {
    prepareGraphql(query, variables);
  } catch (e) {
    if (e instanceof QueryRefused) return e;
    throw e;
  }
  throw new Error("not refused");
}

const nestedWhere = (levels: number): unknown => {
  let w: unknown = { id_gt: "0" };
  for (let i = 0; i < levels; i++) w = { AND: [w] };
  return w;
};
const FILTERED = "query($w: bountyRecordFilter) { bountyRecords(where: $w) { items { id } } }";

describe("prepareGraphql", () => {
  it("refuses a where nested past maxInputDepth in a variable (the probe's 1,900 levels) and in the document", () => {
    const max = QUERY_LIMITS.graphql.maxInputDepth;
    const viaVariable = refusal(FILTERED, { w: nestedWhere(1_900) });
    expect([viaVariable.code, viaVariable.limit, viaVariable.max]).toEqual([
      "limit_exceeded",
      "maxInputDepth",
      max,
    ]);
    expect(viaVariable.message).toContain("$w");
    const inline =
      "{ bountyRecords(where: " +
      "{AND:[".repeat(max) +
      '{id_gt:"0"}' +
      "]}".repeat(max) +
      ") { items { id } } }";
    expect(refusal(inline).limit).toBe("maxInputDepth");
    // a filter of ordinary depth passes, in either place
    expect(() => prepareGraphql(FILTERED, { w: nestedWhere(3) })).not.toThrow();
    expect(() =>
      prepareGraphql('{ bountyRecords(where: {AND: [{OR: [{id_gt: "0"}]}]}) { items { id } } }'),
    ).not.toThrow();
  });

  it("escapes %, _ and the backslash in every LIKE filter, in the document and in variables, and leaves others alone", () => {
    const doc = prepareGraphql(
      '{ anchors(where: {digest_contains: "%_", kind_not_starts_with_nocase: "a\\\\b", digest: "%"}) { items { digest } } }',
    );
    expect(doc.query).toContain('digest_contains: "\\\\%\\\\_"');
    expect(doc.query).toContain('kind_not_starts_with_nocase: "a\\\\\\\\b"');
    expect(doc.query).toContain('digest: "%"'); // equality is not a pattern
    const vars = prepareGraphql("query($w: anchorFilter) { anchors(where: $w) { items { digest } } }", {
      w: { OR: [{ digest_ends_with: "_1" }, { digest_in: ["%"] }] },
    });
    expect(vars.variables).toEqual({ w: { OR: [{ digest_ends_with: "\\_1" }, { digest_in: ["%"] }] } });
  });

  // probe33 B-F1: `kindName_contains: $s` with {"s": "%"} matched every row; a variable named like a filter was
  // escaped wherever it was used
  it("escapes a String variable used as a filter's value, and its default, and nothing named like a filter", () => {
    const q = "query Q($s: String) { anchors(where: {kindName_contains: $s}) { items { kindName } } }";
    expect(prepareGraphql(q, { s: "%" }).variables).toEqual({ s: "\\%" });
    expect(
      prepareGraphql("query Q($s: String) { anchors(where: {OR: [{kindName_starts_with: $s}]}) { items { id } } }", {
        s: "_",
      }).variables,
    ).toEqual({ s: "\\_" });
    const withDefault = prepareGraphql(
      'query Q($s: String = "a_%") { anchors(where: {kindName_not_ends_with_nocase: $s}) { items { id } } }',
    );
    expect(withDefault.query).toContain('$s: String = "a\\\\_\\\\%"');
    // an equality filter's variable is no pattern, whatever its name
    const eq = prepareGraphql(
      "query Q($x_contains: String) { anchors(where: {kindName: $x_contains}) { items { id } } }",
      { x_contains: "a%_" },
    );
    expect(eq.variables).toEqual({ x_contains: "a%_" });
    // one variable as a pattern and as a value: refused, naming it
    const both = refusal(
      "query Q($s: String) { anchors(where: {kindName: $s, digest_contains: $s}) { items { id } } }",
      { s: "%" },
    );
    expect([both.code, both.message.startsWith("$s is used both as a string filter's value")]).toEqual([
      "invalid_query",
      true,
    ]);
  });

  // probe33 B-F6: GraphQL ran a re-printed document, so every error's location pointed into text the client
  // never sent; a syntax error of the limit check had no location at all
  it("hands GraphQL the client's own text, only the escaped literals edited in place, and locates a syntax error", () => {
    const plain = "{ bountyRecords { items { idx } } }";
    expect(prepareGraphql(plain).query).toBe(plain);
    const multi = 'query Q($s: String = "a_") {\n  anchors(where: {kindName_contains: "%", digest: "%", kindName_starts_with: $s}) {\n    items { idx }\n  }\n}';
    const edited = prepareGraphql(multi).query;
    expect(edited).toBe(multi.replace('"a_"', '"a\\\\_"').replace('kindName_contains: "%"', 'kindName_contains: "\\\\%"'));
    expect(edited.split("\n")[2]).toBe(multi.split("\n")[2]); // `idx` where the client wrote it
    const broken = "{ bountyRecords { items { id } } } }";
    const e = refusal(broken);
    expect([e.code, e.locations]).toEqual(["invalid_query", [{ line: 1, column: broken.lastIndexOf("}") + 1 }]]);
  });

  it("refuses cursors this API cannot have returned, naming the argument, and passes one it did", () => {
    const page = (arg: string) => `{ bountyRecords(${arg}) { items { id } } }`;
    for (const bad of [
      '"!!notbase64!!"',
      `"${Buffer.from("[" + "9".repeat(50) + "]").toString("base64")}"`,
      `"${Buffer.from('{"json":{"id":{"__type":"bigint"}}}').toString("base64")}"`,
      `"${Buffer.from('{"json":{}}').toString("base64")}"`,
    ]) {
      const e = refusal(page(`after: ${bad}`));
      expect([e.code, e.message.startsWith("after is not a cursor")]).toEqual(["invalid_query", true]);
    }
    expect(
      refusal("query($c: String) { bountyRecords(before: $c) { items { id } } }", { c: "%%" }).message,
    ).toContain("before ($c)");
    const issued = Buffer.from(JSON.stringify({ json: { id: "12" }, meta: { values: {} } })).toString(
      "base64",
    );
    expect(() => prepareGraphql(page(`after: "${issued}"`))).not.toThrow();
  });
});

describe("prepareGraphql: U+0000 (probe17 B-F10)", () => {
  it.each<[string, string, Record<string, unknown> | undefined, string]>([
    ["a literal", '{ anchors(where: {digest_contains: "\\u0000"}) { items { digest } } }', undefined, "where.digest_contains"],
    ["a variable", "query($a: String) { anchors(where: {digest: $a}) { items { digest } } }", { a: "x\u0000" }, "$a"],
    [
      "a variable's list item",
      "query($a: [String]) { awardWinners(where: {account_in: $a}) { items { account } } }",
      { a: ["x\u0000"] },
      "$a[0]",
    ],
    ["a variable's field", FILTERED, { w: { OR: [{ author: "\u0000" }] } }, "$w.OR[0].author"],
    ["a list literal", '{ anchors(where: {digest_in: ["a", "b\\u0000"]}) { items { digest } } }', undefined, "where.digest_in[1]"],
  ])("refuses U+0000 in %s before the database, naming where it is", (_label, query, variables, where) => {
    const e = refusal(query, variables);
    expect(e.code).toBe("invalid_query");
    expect(e.message).toContain(where);
    expect(e.message).toContain("U+0000");
  });

  it("passes other control characters and ordinary values", () => {
    expect(() =>
      prepareGraphql("query($a: String) { anchors(where: {digest: $a}) { items { digest } } }", { a: "x\u0001y" }),
    ).not.toThrow();
  });
});
