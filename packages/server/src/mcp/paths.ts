/**
 * The MCP endpoints' paths and methods: what `endpoint.ts` mounts, and what the app's 405s and body
 * limits recognise as MCP (a module of its own, so that the limits need not import the endpoint).
 */

/**
 * The methods mounted on the MCP endpoints: POST for JSON-RPC, nothing else. The endpoints are stateless
 * (no `Mcp-Session-Id`, no message the server sends unasked), so a GET's stream would carry nothing and a
 * DELETE would end no session: both are 405, as the Streamable HTTP transport lets such a server answer
 * (probe35 A-N2: they answered 200 with an empty body, the GET's stream held open for the keep-alive).
 */
export const MCP_METHODS = ["POST"] as const;

/**
 * What the MCP endpoints serve, {@link MCP_METHODS}: the one source of what `OPTIONS` and any other method
 * there are told in `Allow` (probe8 P6: one list for every refusal).
 */
export const MCP_ALLOW = MCP_METHODS;

/** The MCP endpoints' routes, as `mountMcp` mounts them: every benchmark's, and one benchmark's. */
export const MCP_ROUTES = ["/mcp", "/mcp/benchmarks/:slug/http"] as const;

/**
 * The MCP endpoints' paths, derived from {@link MCP_ROUTES}
 * (`:slug` is one path segment; the routes hold no other pattern character).
 */
export const MCP_PATH = new RegExp(`^(?:${MCP_ROUTES.map((r) => r.replace(":slug", "[^/]+")).join("|")})$`);
