/**
 * Hash routes, so the static build works from any folder with no server rewrite rules:
 * `#/` benchmarks, `#/b/SLUG` a benchmark, `#/b/SLUG/leaderboard`, `#/b/SLUG/award`, `#/b/SLUG/evidence`.
 *
 * @packageDocumentation
 */

/** A page of the app. */
export type Route =
  | { page: "benchmarks" }
  | { page: "benchmark" | "leaderboard" | "award" | "evidence"; slug: string }
  | { page: "not-found"; path: string };

const SUB = new Set(["leaderboard", "award", "evidence"]);

/** Parses `location.hash`. */
export function parseRoute(hash: string): Route {
  const path = hash.replace(/^#/, "") || "/";
  if (path === "/" || path === "") return { page: "benchmarks" };
  const parts = path.split("/").filter((p) => p !== "");
  if (parts[0] === "b" && parts[1] !== undefined) {
    let slug: string;
    try {
      slug = decodeURIComponent(parts[1]);
    } catch (e) {
      if (e instanceof URIError) return { page: "not-found", path };
      throw e;
    }
    if (parts.length === 2) return { page: "benchmark", slug };
    if (parts.length === 3 && SUB.has(parts[2]!))
      return { page: parts[2] as "leaderboard" | "award" | "evidence", slug };
  }
  return { page: "not-found", path };
}

/** The hash of a page. */
export function href(page: "benchmark" | "leaderboard" | "award" | "evidence", slug: string): string {
  const s = encodeURIComponent(slug);
  return page === "benchmark" ? `#/b/${s}` : `#/b/${s}/${page}`;
}
