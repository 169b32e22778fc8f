/**
 * Listening: {@link serveApp} binds the app on `host:port` with Node's HTTP server and its own
 * timeouts: keep-alive 30 s, headers 35 s, whole request 60 s.
 */
import { serve, type ServerType } from "@hono/node-server";
import type { Server } from "node:http";
import { PlatformError } from "@bench-bounty/platform";
import { createApp, type AppOptions } from "./app.js";

/** A listening server. */
export interface ListeningServer {
  url: string;
  server: ServerType;
  close(): Promise<void>;
}

/**
 * Serves the app on `host:port` (port 0: any free port).
 * @throws PlatformError `invalid_option` naming `port` or `host` when the address cannot be bound
 */
export function serveApp(opts: AppOptions & { port?: number; host?: string }): Promise<ListeningServer> {
  const host = opts.host ?? "127.0.0.1";
  const port = opts.port ?? 8787;
  const shownHost = host.includes(":") ? `[${host}]` : host;
  let url = `http://${shownHost}:${port}`;
  const app = createApp({ listenUrl: () => url, ...opts });
  return new Promise((resolve, reject) => {
    const server = serve({ fetch: app.fetch, port, hostname: host }, (info) => {
      server.removeListener("error", onError);
      const http = server as Server;
      // Idle keep-alive sockets stay open longer than clients' pools keep them (undici: 4 s), so a
      // busy event loop never closes a socket a client is reusing (ECONNRESET); slow clients are
      // still cut off by the header and request deadlines.
      http.keepAliveTimeout = 30_000;
      http.headersTimeout = 35_000;
      http.requestTimeout = 60_000;
      url = `http://${shownHost}:${info.port}`;
      resolve({
        url,
        server,
        close: () =>
          new Promise<void>((res) => {
            http.closeAllConnections?.();
            server.close(() => res());
          }),
      });
    });
    const onError = (e: NodeJS.ErrnoException): void => {
      const field = e.code === "EADDRINUSE" || e.code === "EACCES" ? "port" : "host";
      const why =
        e.code === "EADDRINUSE"
          ? `port ${port} is already in use on ${host}`
          : e.code === "EACCES"
            ? `no permission to listen on port ${port}`
            : `cannot listen on ${host}:${port} (${e.code ?? e.message})`;
      reject(new PlatformError("invalid_option", `--${field}: ${why}`, { field, code: e.code ?? null }));
    };
    server.once("error", onError);
  });
}
