/**
 * The verifier worker's errors (stored as `last_error`, shown to anyone at `GET .../verification`)
 * never carry more of the indexer URL than its origin (probe8 P4: `--indexer-url` may carry credentials;
 * probe9 Q1: or a key in its path).
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { describe, expect, it } from "vitest";
import type { Platform } from "@bench-bounty/platform";
import { DEFAULT_MAX_INDEXER_ANSWER_BYTES } from "@bench-bounty/verifier";
import { verifierDeps } from "../src/verification/runtime.js";
import { MemoryVerificationJobs } from "../src/verification/memory-jobs.js";

/** What the worker's verify step throws for a stub pack of bounty 7 on `indexerUrl`. */
async function verifyError(indexerUrl: string): Promise<Error> {
  const deps = verifierDeps({} as Platform, { jobs: new MemoryVerificationJobs(), indexerUrl });
  const pack = new TextEncoder().encode(JSON.stringify({ benchmark: { bounty_id: "7" } }));
  const job = { attempts: 0 } as Parameters<typeof deps.verify>[1];
  const e = await deps.verify(pack, job).then(
    () => null,
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(Error);
  return e as Error;
}

/**
 * The error the verifier's indexer check throws for bounty 7 on `indexerUrl` (nothing listens on port
 * 9) when the indexer cannot be read: retried, as "will retry" (probe24: not "not yet awarded").
 */
async function indexerUnavailable(indexerUrl: string): Promise<Error> {
  const e = await verifyError(indexerUrl);
  expect(e.name).toBe("IndexerUnavailable");
  expect(e.message).toMatch(/\(will retry\)$/);
  return e;
}

describe("verifier and the indexer URL", () => {
  it("an indexer that has not caught up is reported by its origin only", async () => {
    const e = await indexerUnavailable(
      "http://idxuser:IDXPASS8@127.0.0.1:9/v1/IDXPATH9/?token=IDXTOK8&sig=IDXSIG9",
    );
    expect(e.message).toContain("http://127.0.0.1:9");
    expect(e.message).not.toMatch(/IDXPASS8|IDXTOK8|idxuser|IDXPATH9|IDXSIG9|\/v1/);
  });

  it("a bare indexer URL is reported as it is, the path after it intact (review: `http://127.0.0.1:9bounties/7`)", async () => {
    const e = await indexerUnavailable("http://127.0.0.1:9");
    expect(e.message).toMatch(/^http:\/\/127\.0\.0\.1:9\/bounties\/7: the indexer is unreachable/);
  });

  it("the route joins the URL's path before its query; userinfo is sent as Basic auth (probe10 R3)", async () => {
    const seen: { url: string; auth: string | undefined }[] = [];
    const server = createServer((req, res) => {
      seen.push({ url: req.url ?? "", auth: req.headers.authorization });
      res.setHeader("content-type", "application/json");
      // as the real indexer names it, the contract's enum (probe15 B-F9: compared case-insensitively)
      res.end(JSON.stringify({ bounty: { status: "Awarded" } }));
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const host = `127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const cases: [string, string, string | undefined][] = [
        [`http://${host}/v1/PATHKEY`, "/v1/PATHKEY/bounties/7", undefined],
        [`http://${host}/v1/`, "/v1/bounties/7", undefined],
        [`http://${host}/?token=TOK&k=K`, "/bounties/7?token=TOK&k=K", undefined],
        [
          `http://vu:VPW@${host}/ix?token=TOK`,
          "/ix/bounties/7?token=TOK",
          `Basic ${Buffer.from("vu:VPW").toString("base64")}`,
        ],
      ];
      for (const [base, path, auth] of cases) {
        seen.length = 0;
        // the indexer says `Awarded`: the check passes and verifyPack refuses the stub pack itself
        const e = await verifyError(base);
        expect(e.name).not.toBe("IndexerBehind");
        expect(seen).toEqual([{ url: path, auth }]);
      }
    } finally {
      server.closeAllConnections();
      server.close();
    }
  });

  it("an indexer answer is read within DEFAULT_MAX_INDEXER_ANSWER_BYTES, as the verifier reads it (probe14 D2-F13's class)", async () => {
    // a body that never ends (at most 64 MiB here): it was read whole, and its status string put in the error
    const server = createServer((_req, res) => {
      res.setHeader("content-type", "application/json");
      res.write('{"bounty":{"status":"');
      const chunk = Buffer.alloc(64 * 1024, "a");
      let sent = 0;
      const pump = (): void => {
        while (sent < 64 * 1024 * 1024) {
          sent += chunk.length;
          if (!res.write(chunk)) return void res.once("drain", pump);
        }
        res.end('"}}');
      };
      res.on("close", () => res.removeAllListeners("drain"));
      pump();
    });
    await new Promise<void>((resolve) => server.listen(19753, "127.0.0.1", resolve));
    try {
      const e = await indexerUnavailable("http://127.0.0.1:19753");
      expect(e.message).toContain(
        `the indexer's answer cannot be read: the indexer answer is more than the limit of ${DEFAULT_MAX_INDEXER_ANSWER_BYTES} bytes`,
      );
      expect(e.message.length).toBeLessThan(1000);
    } finally {
      server.closeAllConnections();
      server.close();
    }
  });

  it("an indexer that refuses the request (400 invalid_parameter to a query) fails the job, not retried (probe11 O9)", async () => {
    const server = createServer((_req, res) => {
      res.statusCode = 400;
      res.setHeader("content-type", "application/json");
      res.end(
        JSON.stringify({
          error: {
            code: "invalid_parameter",
            parameter: "token",
            message: "no query parameter is accepted: token",
          },
        }),
      );
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const host = `127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const e = await verifyError(`http://vu:VIDXPW11@${host}/?token=VTOK11&k=VK11`);
      // the worker fails a VerifierInputError for good (worker.ts), it retries anything else
      expect(e.name).toBe("VerifierInputError");
      expect(e.message).toContain(
        `the indexer http://${host} refuses GET /bounties/7: http 400 invalid_parameter (parameter token)`,
      );
      expect(e.message).toContain("not retried");
      expect(e.message).not.toMatch(/VIDXPW11|VTOK11|VK11|vu:/);
      // 404 (no such bounty: not caught up yet) and 429 (busy: cannot tell) are retried
      for (const [status, name] of [
        [404, "IndexerBehind"],
        [429, "IndexerUnavailable"],
      ] as const) {
        const other = createServer((_req, res) => {
          res.statusCode = status;
          res.end("{}");
        });
        await new Promise<void>((resolve) => other.listen(0, "127.0.0.1", resolve));
        try {
          const port = (other.address() as AddressInfo).port;
          expect((await verifyError(`http://127.0.0.1:${port}/?token=T`)).name).toBe(name);
        } finally {
          other.close();
        }
      }
    } finally {
      server.closeAllConnections();
      server.close();
    }
  });
});
