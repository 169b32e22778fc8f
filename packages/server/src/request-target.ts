/**
 * The HTTP request targets the app is never handed: the Node adapter builds a URL from the request line
 * and the Host header before the app runs, and answers what it cannot build (`OPTIONS *`, `GET *`, an
 * authority-form target, a request without Host) with an empty `text/plain` 400 (probe36 A-N1). Those
 * are answered here, before the adapter, in the service's error shape (400 `invalid_request_target`).
 * So are the requests Node's HTTP parser refuses before any handler (its `clientError`: bad framing, a head
 * over the 16 KiB header limit, a head not sent in time), which Node answered with an empty body (probe37
 * A-N1).
 * @packageDocumentation
 */
import type { Duplex } from "node:stream";
import {
  createServer,
  STATUS_CODES,
  type IncomingMessage,
  type RequestListener,
  type ServerOptions,
} from "node:http";
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

/** Node's parser error codes the service names; any other parser refusal is `malformed_http`. */
function parserRefusal(err: Error & { code?: string }): EdgeError {
  if (err.code === "HPE_HEADER_OVERFLOW")
    return new EdgeError(
      "request_headers_too_large",
      "the request line and headers are over 16 KiB: send long values in a JSON body, not in the URL or a header",
      { limit_bytes: 16_384 },
    );
  if (err.code === "ERR_HTTP_REQUEST_TIMEOUT")
    return new EdgeError("request_header_timeout", "the request was not received in time");
  return new EdgeError(
    "malformed_http",
    "the request is not well-formed HTTP/1.1 (Node's parser refused it)",
    {
      parser_code: typeof err.code === "string" ? err.code.slice(0, 64) : null,
    },
  );
}

/**
 * Answers a request Node's parser refused ({@link parserRefusal}) in the service's error shape and closes
 * the connection; a socket that cannot take an answer (reset, closed, or a response already under way) is
 * destroyed, as Node's own handler does.
 */
function answerClientError(err: Error & { code?: string }, socket: Duplex): void {
  const inFlight = (socket as Duplex & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
  if (err.code === "ECONNRESET" || !socket.writable || inFlight?.headersSent === true) {
    socket.destroy();
    return;
  }
  const refusal = parserRefusal(err);
  const { status, body } = errorResponseOf(refusal);
  const bytes = Buffer.from(jsonText(body), "utf8");
  const reason = STATUS_CODES[status] ?? "Error";
  socket.end(
    Buffer.concat([
      Buffer.from(
        `HTTP/1.1 ${status} ${reason}\r\ncontent-type: ${JSON_TYPE}\r\ncontent-length: ${bytes.byteLength}\r\nconnection: close\r\n\r\n`,
        "latin1",
      ),
      bytes,
    ]),
  );
}

/**
 * `node:http`'s `createServer` for the adapter (`@hono/node-server`'s `createServer` option): requests it
 * cannot take ({@link oddTarget}) are answered 400 `invalid_request_target` as JSON, those its parser refuses
 * as {@link answerClientError} says; every other goes to `listener`.
 */
export const createGuardedServer = ((options: ServerOptions, listener: RequestListener) => {
  const server = createServer(options, (req, res) => {
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
  });
  server.on("clientError", answerClientError);
  return server;
}) as typeof createServer;
