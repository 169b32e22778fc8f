/**
 * The MCP endpoints' paths and methods: what `endpoint.ts` mounts, and what the app's 405s and body
 * limits recognise as MCP (a module of its own, so that the limits need not import the endpoint).
 */

/**
 * The methods of the MCP endpoints (POST for JSON-RPC; GET and DELETE answer as the SDK's stateless
 * mode does): the one source of what is mounted, of the 405 a HEAD gets (Hono runs the GET handler for
 * a HEAD) and of what `OPTIONS` and any other method are told in `Allow` (probe8 P6: `HEAD /mcp`
 * answered `allow: GET, POST, DELETE` while `OPTIONS /mcp` advertised HEAD too).
 */
export const MCP_METHODS = ["DELETE", "GET", "POST"] as const;

/** The MCP endpoints' routes, as `mountMcp` mounts them: every benchmark's, and one benchmark's. */
export const MCP_ROUTES = ["/mcp", "/mcp/benchmarks/:slug/http"] as const;

/**
 * The MCP endpoints' paths (no HEAD on them: see {@link MCP_METHODS}), derived from {@link MCP_ROUTES}
 * (`:slug` is one path segment; the routes hold no other pattern character).
 */
export const MCP_PATH = new RegExp(`^(?:${MCP_ROUTES.map((r) => r.replace(":slug", "[^/]+")).join("|")})$`);
