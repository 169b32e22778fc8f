/**
 * The HTTP request targets the app is never handed: the Node adapter builds a URL from the request line
 * and the Host header before the app runs, and answers what it cannot build (`OPTIONS *`, `GET *`, an
 * authority-form target, a request without Host) with an empty `text/plain` 400 (probe36 A-N1). Those
 * are answered here, before the adapter, in the service's error shape (400 `invalid_request_target`).
 * @packageDocumentation
 */
import { createServer, type IncomingMessage, type RequestListener, type ServerOptions } from "node:http";
import { EdgeError, errorResponseOf } from "./errors.js";
import { jsonText, JSON_TYPE } from "./http.js";

/**
 * Why the adapter could not take this request: a target that is neither a path (`/...`) nor an absolute
 * `http(s)://` URL, or no Host header; null when it can.
 */
function oddTarget(req: IncomingMessage): EdgeError | null {
  const target = req.url ?? "";
  const path = target.startsWith("/");
  if (!path && !/^https?:\/\//i.test(target))
    return new EdgeError(
      "invalid_request_target",
      `the request target ${JSON.stringify(target.slice(0, 64))} is not a path: this service answers /api/v1/..., /mcp and the web pages`,
      { request_target: target.slice(0, 64) },
    );
  if (path && (req.headers.host ?? "") === "")
    return new EdgeError("invalid_request_target", "the request has no Host header (HTTP/1.1 requires one)", {
      header: "host",
    });
  return null;
}

/**
 * `node:http`'s `createServer` for the adapter (`@hono/node-server`'s `createServer` option): requests it
 * cannot take ({@link oddTarget}) are answered 400 `invalid_request_target` as JSON; every other goes to `listener`.
 */
export const createGuardedServer = ((options: ServerOptions, listener: RequestListener) =>
  createServer(options, (req, res) => {
    const odd = oddTarget(req);
    if (odd === null) return listener(req, res);
    const { status, body } = errorResponseOf(odd);
    const bytes = Buffer.from(jsonText(body), "utf8");
    res.writeHead(status, {
      "content-type": JSON_TYPE,
      "content-length": bytes.byteLength,
      connection: "close",
    });
    res.end(bytes);
  })) as typeof createServer;
