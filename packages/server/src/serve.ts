/**
 * Listening: {@link serveApp} binds the app on `host:port` with Node's HTTP server and its own
 * timeouts ({@link DEFAULT_TIMEOUTS}): keep-alive 30 s, headers 35 s, whole request 60 s, the last two
 * checked every 2 s.
 */
import { serve, type ServerType } from "@hono/node-server";
import type { Server } from "node:http";
import { PlatformError } from "@bench-bounty/platform";
import { createApp, type AppOptions } from "./app.js";
import { createGuardedServer } from "./request-target.js";

/** A listening server. */
export interface ListeningServer {
  url: string;
  server: ServerType;
  /**
   * Stops listening and closes every connection; with `graceMs` > 0 the requests in flight get that
   * long to be answered first (idle connections are closed as they become idle), then every
   * connection left is cut (default 0: at once).
   */
  close(graceMs?: number): Promise<void>;
}

/** The HTTP server's deadlines, in ms. */
export interface ServerTimeouts {
  /** An idle keep-alive socket is closed after this. */
  keepAliveMs: number;
  /** A request whose headers are not all in after this is answered 408 (checked every `checkMs`). */
  headersMs: number;
  /** A request not all in after this is answered 408 (checked every `checkMs`). */
  requestMs: number;
  /**
   * How often Node checks the header and request deadlines (`connectionsCheckingInterval`): a slow
   * client is cut off between `headersMs` and `headersMs + checkMs` (probe10: Node's default, 30 s,
   * let a trickling client hold its socket 64 s against a documented 35 s).
   */
  checkMs: number;
}

export const DEFAULT_TIMEOUTS: ServerTimeouts = {
  keepAliveMs: 30_000,
  headersMs: 35_000,
  requestMs: 60_000,
  checkMs: 2_000,
};

/**
 * The base URL of the address a server listens on, `http://HOST:PORT` in the URL parser's canonical
 * text (`--host 127.1` is `http://127.0.0.1:P`, `::1` is `http://[::1]:P`): the default public base
 * URL meets the rule `--public-url` must meet (probe33 B-F12: `http://127.1:P` was served in
 * how_to_compete while the same text given as `--public-url` was refused as non-canonical).
 * @param host the listen address as given (an IPv6 address without brackets)
 * @param port the port listened on
 * @returns the URL without a trailing `/`
 */
export function listenUrlOf(host: string, port: number): string {
  const text = `http://${host.includes(":") ? `[${host}]` : host}:${port}`;
  try {
    return new URL(text).href.replace(/\/$/, "");
  } catch (e) {
    if (!(e instanceof TypeError)) throw e;
    return text; // bound, so a name the socket took; kept as given
  }
}

/**
 * Serves the app on `host:port` (port 0: any free port), with {@link DEFAULT_TIMEOUTS} unless `timeouts` says otherwise.
 * `optionName` names the option a refusal is about as the caller's command line gave it (the CLI's
 * `optionSourceName`: `HOST (the environment form of --host)` for a value from the environment, probe32
 * B-F2); by default the flag.
 * @throws PlatformError `invalid_option` naming `port` or `host` when the address cannot be bound
 */
export function serveApp(
  opts: AppOptions & {
    port?: number;
    host?: string;
    timeouts?: Partial<ServerTimeouts>;
    optionName?: (flag: "--host" | "--port") => string;
  },
): Promise<ListeningServer> {
  const timeouts = { ...DEFAULT_TIMEOUTS, ...opts.timeouts };
  const host = opts.host ?? "127.0.0.1";
  const port = opts.port ?? 8787;
  let url = listenUrlOf(host, port);
  const app = createApp({ listenUrl: () => url, ...opts });
  return new Promise((resolve, reject) => {
    const serverOptions = { connectionsCheckingInterval: timeouts.checkMs };
    const server = serve(
      { fetch: app.fetch, port, hostname: host, serverOptions, createServer: createGuardedServer },
      (info) => {
        server.removeListener("error", onError);
        const http = server as Server;
        // Idle keep-alive sockets stay open longer than clients' pools keep them (undici: 4 s), so a
        // busy event loop never closes a socket a client is reusing (ECONNRESET); slow clients are
        // still cut off by the header and request deadlines.
        http.keepAliveTimeout = timeouts.keepAliveMs;
        http.headersTimeout = timeouts.headersMs;
        http.requestTimeout = timeouts.requestMs;
        url = listenUrlOf(host, info.port);
        resolve({
          url,
          server,
          close: (graceMs = 0) =>
            new Promise<void>((res) => {
              if (graceMs <= 0) http.closeAllConnections?.();
              const idle = setInterval(() => http.closeIdleConnections?.(), 20);
              const cut = setTimeout(() => http.closeAllConnections?.(), Math.max(0, graceMs));
              server.close(() => {
                clearInterval(idle);
                clearTimeout(cut);
                res();
              });
              http.closeIdleConnections?.();
            }),
        });
      },
    );
    const onError = (e: NodeJS.ErrnoException): void => {
      const field = e.code === "EADDRINUSE" || e.code === "EACCES" ? "port" : "host";
      const why =
        e.code === "EADDRINUSE"
          ? `port ${port} is already in use on ${host}`
          : e.code === "EACCES"
            ? `no permission to listen on port ${port}`
            : `cannot listen on ${host}:${port} (${e.code ?? e.message})`;
      const name = opts.optionName?.(`--${field}`) ?? `--${field}`;
      reject(new PlatformError("invalid_option", `${name}: ${why}`, { field, code: e.code ?? null }));
    };
    server.once("error", onError);
  });
}
