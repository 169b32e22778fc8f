/**
 * A relayed claim's signature in a form viem recovers but the contract's OpenZeppelin `ECDSA` refuses
 * for an account without code: the high-s twin `(r, n - s, v ^ 1)` (probe10 R8) and the y-parity form
 * ending in v 0/1 (probe11 O12). They are an EOA's rules (probe36 C-F3: a smart-contract wallet's own
 * format may be any of them, or empty), applied once the account's code is read: on a service without a
 * chain they go on, as the original does, to 503 `no_chain` (the refusals for an EOA, and a wallet's
 * forms paid: relay-contract-wallet.test.ts, on the devchain). The body's `$.signature` is any hex up to
 * 2048 bytes, empty included, and names that cap when refused.
 */
import { CLAIM_PRIMARY_TYPE, CLAIM_TYPES, claimDomain } from "@bench-bounty/contracts";
import { recoverTypedDataAddress, type Hex } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { call, publishCities, register, useLive } from "./helpers.js";

const live = useLive();
/** The secp256k1 group order. */
const N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;

const signer = privateKeyToAccount(`0x${"42".repeat(32)}`);
const to = "0x00000000000000000000000000000000000a11ce" as const;
const typed = {
  domain: claimDomain(8453, "0x00000000000000000000000000000000000000bb"),
  types: CLAIM_TYPES,
  primaryType: CLAIM_PRIMARY_TYPE,
  message: { bountyId: 1n, account: signer.address, to, nonce: 0n, deadline: 1_900_000_000n },
} as const;

/** The twin of a 65-byte signature: s -> n - s, v flipped. */
function highSTwin(sig: Hex): Hex {
  const r = sig.slice(2, 66);
  const s = BigInt(`0x${sig.slice(66, 130)}`);
  const v = parseInt(sig.slice(130, 132), 16);
  return `0x${r}${(N - s).toString(16).padStart(64, "0")}${(v === 27 ? 28 : 27).toString(16)}`;
}

/** The same signature with v as the y-parity 0/1. */
function parityForm(sig: Hex): Hex {
  return `${sig.slice(0, 130)}0${parseInt(sig.slice(130), 16) - 27}` as Hex;
}

let slug = "";
let key = "";
beforeAll(async () => {
  slug = (await publishCities(live.url, 2, "relay-sig")).slug;
  key = (await register(live.url, "relay-sig-relayer")).key;
});

describe("a relayed claim's signature on a service without a chain (probe36 C-F3)", () => {
  // a second key for the lengths that pass: the relay's rate limit is per account (burst 5)
  let lengths = "";
  beforeAll(async () => {
    lengths = (await register(live.url, "relay-sig-lengths")).key;
  });
  it.each([
    ["the high-s twin (probe10 R8)", highSTwin],
    ["the y-parity form (probe11 O12)", parityForm],
  ] as const)(
    "%s of a valid signature goes on to 503 no_chain, as the original: an EOA's rule needs the account's code",
    async (_, malleate) => {
      const good = await signer.signTypedData(typed);
      const bad = malleate(good);
      expect(await recoverTypedDataAddress({ ...typed, signature: bad })).toBe(signer.address); // viem takes it
      const body = (signature: Hex) => ({ account: signer.address, to, deadline: "1900000000", signature });
      const path = `/api/v1/benchmarks/${slug}/claims/relay`;
      const r = await call(live.url, "POST", path, { key, body: body(bad) });
      expect(r.json.error.code, r.text).toBe("no_chain");
    },
  );

  it.each([
    ["empty", "0x"],
    ["1 byte", "0x01"],
    ["2048 bytes", `0x${"ab".repeat(2048)}`],
  ])(
    "a signature of %s passes the body's check (a smart-contract wallet's own format)",
    async (_, signature) => {
      const body = { account: signer.address, to, deadline: "1900000000", signature };
      const r = await call(live.url, "POST", `/api/v1/benchmarks/${slug}/claims/relay`, {
        key: lengths,
        body,
      });
      expect(r.json.error.code, r.text).toBe("no_chain");
    },
  );

  it.each([
    ["2049 bytes", `0x${"ab".repeat(2049)}`],
    ["an odd number of hex digits", "0xabc"],
  ])("a signature of %s is 422 naming $.signature and the cap", async (_, signature) => {
    const body = { account: signer.address, to, deadline: "1900000000", signature };
    const r = await call(live.url, "POST", `/api/v1/benchmarks/${slug}/claims/relay`, { key, body });
    expect(r.status, r.text).toBe(422);
    expect(r.json.error).toMatchObject({ code: "invalid_request", details: { path: "$.signature" } });
    expect(r.json.error.message).toMatch(/^\$\.signature: .*at most 2048 bytes \(4096 hex digits\)/);
  });

  it("an all-upper-case account or to is unchecksummed, as all-lower-case is: not refused (probeD2 F8)", async () => {
    const upper = (a: string) => `0x${a.slice(2).toUpperCase()}`;
    const signature = await signer.signTypedData(typed);
    const body = { account: upper(signer.address), to: upper(to), deadline: "1900000000", signature };
    const r = await call(live.url, "POST", `/api/v1/benchmarks/${slug}/claims/relay`, { key, body });
    expect(r.json.error.code, r.text).toBe("no_chain"); // past every check of the body, as the original
  });
});

// probe27 C-F3: a deadline of more than 20 digits (type(uint256).max, a common "never expires") was refused
// "must be unix seconds as a decimal string", a cap the message did not name and the contract does not have
describe("a relayed claim's deadline is the contract's uint256 (probe27 C-F3)", () => {
  const MAX = (2n ** 256n - 1n).toString();
  let own = ""; // a key of its own per test: the relay's rate limit is per account (burst 5)
  let n = 0;
  beforeEach(async () => {
    own = (await register(live.url, `relay-deadline-cap-${n++}`)).key;
  });
  const post = async (deadline: string) => {
    const signature = await signer.signTypedData(typed);
    const body = { account: signer.address, to, deadline, signature };
    return call(live.url, "POST", `/api/v1/benchmarks/${slug}/claims/relay`, { key: own, body });
  };

  it("type(uint256).max (78 digits) passes the body's check", async () => {
    const r = await post(MAX);
    expect(r.json.error.code, r.text).toBe("no_chain"); // past every check of the body
  });

  it.each([
    [
      "2^256 (78 digits)",
      (2n ** 256n).toString(),
      /at most 2\^256 - 1 \(115792089237316195423570985008687907853269984665640564039457584007913129639935\)/,
    ],
    ["79 digits", "1".repeat(79), /decimal string of at most 78 digits/],
    // not digits at all (probe28 C-F6: each was a 500, BigInt() throwing in the cap's check)
    ["abc", "abc", /decimal string of at most 78 digits/],
    ["1.5", "1.5", /decimal string of at most 78 digits/],
    ["1e+21", "1e+21", /decimal string of at most 78 digits/],
    ["an Arabic-Indic digit", "\u0663", /decimal string of at most 78 digits/],
    ["12_3", "12_3", /decimal string of at most 78 digits/],
  ])("%s is 422 naming $.deadline and the cap", async (_, deadline, says) => {
    const r = await post(deadline);
    expect(r.status, r.text).toBe(422);
    expect(r.json.error.code).toBe("invalid_request");
    expect(r.json.error.message).toMatch(/\$\.deadline/);
    expect(r.json.error.message).toMatch(says);
  });

  // probe29 C-F10: a wrong JSON type was "$.deadline: Invalid input", -1 zod's "Too small"
  const RULE =
    "$.deadline: must be unix seconds: a JSON integer from 0 to 2^53-1, or a decimal string of at most 78 digits (up to 2^256-1)";
  const postRaw = async (deadline: string) => {
    const signature = await signer.signTypedData(typed);
    const raw = `{"account":"${signer.address}","to":"${to}","deadline":${deadline},"signature":"${signature}"}`;
    return call(live.url, "POST", `/api/v1/benchmarks/${slug}/claims/relay`, { key: own, raw });
  };
  it.each(["null", "true", "[]", '{"a":1}', "-1", '"abc"', '""'])(
    "deadline %s is 422 naming $.deadline with the field's own sentence (probe29 C-F10)",
    async (deadline) => {
      const r = await postRaw(deadline);
      expect(r.status, r.text).toBe(422);
      expect(r.json.error).toMatchObject({
        code: "invalid_request",
        message: RULE,
        details: { path: "$.deadline" },
      });
    },
  );
  it("a fraction is refused by its text; 1.0 and 1e3 are the integers they exactly are (the server's one integer rule)", async () => {
    const r = await postRaw("1.5");
    expect(r.status, r.text).toBe(422);
    expect(r.json.error.message).toMatch(/^\$\.deadline 1\.5 is not a whole number/);
    for (const exact of ["1.0", "1e3"]) {
      const taken = await postRaw(exact);
      expect(taken.json.error.code, taken.text).toBe("no_chain"); // past every check of the body
    }
  });

  it("a JSON number over 2^53-1 is 422 advising the plain decimal string that passes (probe28 C-F6)", async () => {
    const signature = await signer.signTypedData(typed);
    const body = { account: signer.address, to, deadline: 1e21, signature }; // sent as 1e+21
    const r = await call(live.url, "POST", `/api/v1/benchmarks/${slug}/claims/relay`, { key: own, body });
    expect(r.status, r.text).toBe(422);
    expect(r.json.error.message).toContain(
      'send it as a plain decimal string (e.g. "1000000000000000000000")',
    );
    const advised = await post("1000000000000000000000");
    expect(advised.json.error.code, advised.text).toBe("no_chain"); // the advice, followed, passes the body's check
  });
});
