/**
 * The MCP endpoints' paths and methods: what `endpoint.ts` mounts, and what the app's 405s and body
 * limits recognise as MCP (a module of its own, so that the limits need not import the endpoint).
 */

/**
 * The methods mounted on the MCP endpoints (POST for JSON-RPC; GET and DELETE answer as the SDK's
 * stateless mode does). A HEAD (Hono runs the GET handler for it) is answered as the GET, without its
 * body ({@link MCP_ALLOW}).
 */
export const MCP_METHODS = ["DELETE", "GET", "POST"] as const;

/**
 * What the MCP endpoints serve, {@link MCP_METHODS} and HEAD (a GET's status and headers, no body: a
 * resource that allows GET allows HEAD, RFC 9110 9.3.2; probe30 A-F9: HEAD was 405 `Allow: DELETE, GET,
 * POST`): the one source of what `OPTIONS` and any other method there are told in `Allow` (probe8 P6:
 * one list for every refusal).
 */
export const MCP_ALLOW = ["DELETE", "GET", "HEAD", "POST"] as const;

/** The MCP endpoints' routes, as `mountMcp` mounts them: every benchmark's, and one benchmark's. */
export const MCP_ROUTES = ["/mcp", "/mcp/benchmarks/:slug/http"] as const;

/**
 * The MCP endpoints' paths, derived from {@link MCP_ROUTES}
 * (`:slug` is one path segment; the routes hold no other pattern character).
 */
export const MCP_PATH = new RegExp(`^(?:${MCP_ROUTES.map((r) => r.replace(":slug", "[^/]+")).join("|")})$`);
