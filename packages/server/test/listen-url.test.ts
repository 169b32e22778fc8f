/**
 * The default public base URL is the listen address in canonical text (probe33 B-F12: `--host 127.1`
 * served `http://127.1:P` in how_to_compete, a form `--public-url` itself is refused for).
 */
import { publicBaseUrlFault } from "@bench-bounty/platform";
import { describe, expect, it } from "vitest";
import { listenUrlOf, serveApp } from "../src/serve.js";
import { platformDomain } from "../src/platform-domain.js";
import { Platform } from "@bench-bounty/platform";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

describe("listenUrlOf", () => {
  it.each([
    ["127.1", 8787, "http://127.0.0.1:8787"],
    ["0", 1, "http://0.0.0.0:1"],
    ["0x0", 2, "http://0.0.0.0:2"],
    ["::", 3, "http://[::]:3"],
    ["::1", 4, "http://[::1]:4"],
    ["LOCALHOST", 5, "http://localhost:5"],
    ["127.0.0.1", 80, "http://127.0.0.1"],
  ])("--host %s, port %d: %s, a usable --public-url", (host, port, url) => {
    expect(listenUrlOf(host, port)).toBe(url);
    expect(publicBaseUrlFault(listenUrlOf(host, port))).toBeUndefined();
  });

  it("serveApp on --host 127.1 answers its URL in canonical text", async () => {
    const platform = await Platform.open({ dir: mkdtempSync(join(tmpdir(), "listen-url-")) });
    try {
      const server = await serveApp({ domain: platformDomain(platform), port: 0, host: "127.1" });
      try {
        expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
        expect(publicBaseUrlFault(server.url)).toBeUndefined();
      } finally {
        await server.close();
      }
    } finally {
      await platform.close();
    }
  });
});
