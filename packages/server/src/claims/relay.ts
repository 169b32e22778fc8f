/**
 * Relayed claims (SPEC 1.1 `claimWithSig`, v1.1; issue 15 item 5): a winner who holds no ETH signs
 * the EIP-712 `Claim` of `@bench-bounty/contracts` (`claimDomain`, `CLAIM_TYPES`: the one statement of
 * the typed data; `deploy/lib/relay.ts` signs with the same) and posts it; the operator's signer
 * submits `claimWithSig` and pays the gas. The credit goes to the signed `to`, never to the relayer.
 *
 * Nothing is sent before these hold, each refused with its own code: the signature of an account without
 * code (an EOA; one `eth_getCode`, read only when the signature is not in this form) has the form the
 * contract's OpenZeppelin `ECDSA` takes, `eoaSignatureProblem`: 65 bytes (`invalid_request`, `reason:
 * "eoa_length"`), the canonical low-s form (`invalid_claim_signature` with `reason: "high_s"`, before any
 * other chain read: probe10 R8, the high-s twin of a valid signature passed viem's check and the contract
 * refused it at simulation, 502 `chain_error`), ending in v 27/28, not the y-parity 0/1 (`reason:
 * "v_not_27_28"`, likewise: probe11 O12); a smart-contract wallet's signature, in its own format (any
 * length up to the body's cap, empty included), is the wallet's `isValidSignature` to judge (ERC-1271), when
 * the bounty contract asks in the simulation (or only at the send's gas estimate, a revert the estimate's
 * answer names, probe37 C-N1): a refusal there is `invalid_claim_signature` with `reason:
 * "erc1271_rejected"` (probe36 C-F3: its forms were refused as an EOA's); `to` passes the withdrawal-address
 * rule (`invalid_withdrawal_address` naming `$.to`: not the zero address nor one of this platform's
 * contracts, before any chain call; and, once the claim's own checks pass, its code rule: not a
 * BenchmarkBounty or AnchorRegistry deployed elsewhere, `reason: "platform_contract"`, probe28 C-F3, the
 * platform's `checkWithdrawalAddressOnChain`); the benchmark has a bounty on
 * this service's chain and contract, the ones recorded at attach (`no_bounty`, `no_chain`, `bounty_mismatch`); the deadline is after the latest block's time
 * (`claim_expired`; also when the send fails for a deadline at or before the pending block's time); `account` has credit (`no_credit`: a second submission of a used claim ends
 * here); the signature is `account`'s over the current nonce (`invalid_claim_signature`; ECDSA for
 * an EOA, through viem's `verifyTypedData`; a contract wallet's signature that check does not verify goes on
 * to the simulation, the contract's own ERC-1271 check). Then the call is
 * simulated (a revert is `chain_error` naming the contract's error; a transfer the token refuses is said by
 * whom its own blacklist refuses, `tokenRefusal`: `to` alone, 422 `invalid_withdrawal_address` naming `$.to`,
 * probe27 C-F7; the bounty contract, or nobody (a paused token), 409 `token_refused` with the token's reason,
 * probe31 C-F4, never the 502 of a chain failure; but `NothingToClaim`, a claim that
 * won the race since the credit check, is `no_credit`, and so are a reasonless revert while the
 * credit at the `pending` block is 0, the winner's own claim not yet mined, and an `InvalidClaimSignature`
 * while that credit is 0, the same claim relayed by another process and mined since, probe30 C-F4), sent and awaited.
 * These checks only read, and run before the relay takes its turn: a refused claim never takes one
 * (probe28 A-F3: fifty claims without credit, checked inside the turn, were answered one after another
 * ahead of a winner's). Relays take turns in this process (`turnQueue` of the platform); inside its turn a
 * relay reads the credit and nonce again (a relay before it may have claimed the credit or used the
 * nonce: `no_credit`, `invalid_claim_signature` with `details.current_nonce`), and each send takes its
 * turn among the chain gateway's own writes (anchors, the award), so the operator's nonce sequence has
 * one writer here.
 *
 * Each relay is bounded by its request's deadline (`answerBy`, the award's: `AppEnv.awardBy`, probe24
 * C-F2: one slow claim held every relay of the process for viem's 180 s and a queued claim was sent
 * after its caller had been answered 503): a claim whose turn has not come by then is answered 503
 * `server_busy` and never sent; the deadline is checked again right before the signed transaction goes
 * to the node (past it, `server_busy`, nothing sent); the receipt wait ends at it, answering 409
 * `claim_pending` with the transaction's hash. An answer given before the send means nothing was sent.
 * A send whose answer is lost after the signed transaction left (the RPC failing at that moment) is taken
 * as sent, the platform's rule (`sendOrLose`, the award's too): its hash, signed here, is waited for like any
 * other, 200 once mined or 409 `claim_pending` naming it; never `no_credit` for the relay's own transaction
 * (probe34 C-F5).
 */
import {
  benchmarkBountyAbi,
  blacklistedParties,
  BountyStatus,
  CLAIM_PRIMARY_TYPE,
  CLAIM_TYPES,
  claimDomain,
  claimTransferParties,
} from "@bench-bounty/contracts";
import type { JsonValue } from "@bench-bounty/evidence";
import {
  DEFAULT_AWARD_WAIT_MS,
  PlatformError,
  requirePrincipal,
  revertError,
  revertOf,
  sendOrLose,
  turnQueue,
  type AwardedPlace,
  type LateTurn,
  type Platform,
  type RelayedClaim,
  type Turns,
} from "@bench-bounty/platform";
import { BaseError, parseAbi, type Address, type Hash } from "viem";
import type { RelayClaimInput } from "../domain.js";
import { EdgeError } from "../errors.js";

export type { RelayedClaim };

/**
 * A chain failure as the platform names it (a revert names the contract's custom error, or the
 * `Error(string)` reason a token's refusal bubbles up with: `revertOf`, the platform's one decoding); the
 * platform's own error (the chain gateway's, which already names it) as it is.
 */
function chainError(what: string, e: unknown): PlatformError {
  if (e instanceof PlatformError) return e;
  const revert = revertOf(e);
  if (revert) return revertError(what, revert);
  if (e instanceof BaseError)
    return new PlatformError("chain_error", `${what} failed: ${e.shortMessage}`, {});
  return new PlatformError("chain_error", `${what} failed: ${(e as Error).message}`, {});
}

/** FiatToken's (USDC's) blacklist view: the one read that says whom a token's refusal is about. */
const BLACKLIST_ABI = parseAbi(["function isBlacklisted(address account) view returns (bool)"]);

/**
 * The refusal of a `claimWithSig` that the token reverted (its `Error(string)` reason, `err.details.reason`,
 * bubbled up through the bounty's SafeERC20 transfer, or SafeERC20's `SafeERC20FailedOperation` for a token
 * answering false), said by whom the token refuses: its own blacklist read for the claim's parties, `to` and
 * the bounty contract that sends every claim (`blacklistedParties` over `claimTransferParties` of
 * `@bench-bounty/contracts`, the Hardhat tasks' rule: read, never guessed from the reason's wording):
 * - the bounty contract blacklisted: 409 `token_refused` naming it (`details.blacklisted` lists it, and `to`
 *   when blacklisted too): no other `to` helps, the credit stays (probe31 C-F4: 502 `chain_error`);
 * - `to` alone blacklisted: 422 `invalid_withdrawal_address` naming `$.to` with the token's reason, sign again
 *   with another `to` (probe27 C-F7: 502 "claimWithSig reverted: Error");
 * - neither read to be blacklisted (a paused token; a token without that view or a failing read, which name
 *   nobody and are never taken to clear anyone): 409 `token_refused` with the token's reason,
 *   `details.blacklisted` empty: the credit stays, post the same claim once the token transfers again (probe31
 *   C-F4: a paused token was 502 `chain_error`, telling the client the chain failed).
 * Every other error (`err.code` not `chain_error`, a revert of the bounty itself) as it is. Nothing was sent:
 * the refusal is the simulation's.
 */
async function tokenRefusal(
  err: PlatformError,
  client: NonNullable<Platform["chain"]>["publicClient"],
  token: Address,
  to: Address,
  bounty: Address,
): Promise<PlatformError | EdgeError> {
  const reason = err.details.reason;
  const failedOperation = err.details.revert === "SafeERC20FailedOperation";
  if (err.code !== "chain_error" || (typeof reason !== "string" && !failedOperation)) return err;
  const tokenReason = typeof reason === "string" ? reason : "SafeERC20FailedOperation";
  const listed = await blacklistedParties(claimTransferParties(to, bounty), (account) =>
    client.readContract({
      address: token,
      abi: BLACKLIST_ABI,
      functionName: "isBlacklisted",
      args: [account as Address],
    }),
  );
  const roles = new Set(listed.map((p) => p.role));
  const facts = {
    token: token.toLowerCase(),
    token_reason: tokenReason,
    to: to.toLowerCase(),
    bounty_contract: bounty.toLowerCase(),
    blacklisted: listed.map((p) => p.role),
  };
  if (roles.has("bounty_contract"))
    return new EdgeError(
      "token_refused",
      `claimWithSig: the token ${facts.token} blacklists the bounty contract ${facts.bounty_contract}, which sends every claim, and refused the transfer ("${tokenReason}"): no other \`to\` helps; the credit stays until the token stops blacklisting it; nothing was sent`,
      facts,
    );
  if (roles.has("recipient"))
    return new PlatformError(
      "invalid_withdrawal_address",
      `to: the token ${facts.token} blacklists ${facts.to} and refused the transfer ("${tokenReason}"): sign the claim again with another \`to\`; nothing was sent`,
      {
        field: "to",
        path: "$.to",
        reason: "token_blacklisted",
        token_reason: tokenReason,
        to: facts.to,
        token: facts.token,
      },
    );
  return new EdgeError(
    "token_refused",
    `claimWithSig: the token ${facts.token} refused the transfer ("${tokenReason}"), the token's own refusal, not a failure of the chain; no read of its blacklist named \`to\` or the bounty contract: nothing was sent and the credit stays: post the same signed claim again once the token transfers again`,
    facts,
  );
}

/**
 * The largest canonical `s` of a secp256k1 signature, half the curve order: OpenZeppelin's `ECDSA`
 * (which `claimWithSig` checks an EOA's signature with, through `SignatureChecker`) refuses any `s`
 * above it (EIP-2), while viem's `verifyTypedData` recovers the twin `(r, n - s, v ^ 1)` as well.
 * viem exports no low-s helper and `@noble/curves` is not a dependency of this package: the constant
 * is OpenZeppelin's, compared as a number, no curve arithmetic.
 */
const SECP256K1_HALF_ORDER = 0x7fffffffffffffffffffffffffffffff5d576e7357a4501ddfe92f46681b20a0n;

/**
 * The form OpenZeppelin's `ECDSA` takes, which `claimWithSig` checks the signature of an account WITHOUT
 * code with (`SignatureChecker`, SPEC 1.1): 65 bytes `(r, s, v)`, v 27 or 28, `s` in the lower half of the
 * curve order. The relay applies it only once it has read that `account` runs no code; an account with code
 * (a smart-contract wallet, ERC-1271) is checked by its own `isValidSignature`, in whatever format it has
 * (a Safe's 65-byte `v = 0` or `v = 1` forms, an empty signature for a message it signed on-chain), and none
 * of these rules is its (probe36 C-F3: such signatures were refused "which the contract refuses").
 * Pure: no chain call.
 * @returns null when the signature has that form; else the refusal: 422 `invalid_request` naming
 *   `$.signature` for any length but 65 bytes (`reason: "eoa_length"`: a longer form, such as an ERC-6492
 *   wrapper of a wallet not deployed yet, passed viem's check and the contract's simulation reverted); 422 `invalid_claim_signature` for a
 *   last byte that is the y-parity 0 or 1 rather than v 27 or 28 (`reason: "v_not_27_28"`: viem recovers from
 *   either, `ECDSA.tryRecover` refuses any v but 27/28, probe11 O12) or an `s` above half the order
 *   (`reason: "high_s"`: the malleable twin viem recovers too, probe10 R8). Standard signers (viem, ethers, wallets) always give the low-s form
 *   with v 27/28.
 */
export function eoaSignatureProblem(signature: `0x${string}`, account: string): EdgeError | null {
  const bytes = (signature.length - 2) / 2;
  if (bytes !== 65)
    return new EdgeError(
      "invalid_request",
      `$.signature: ${account} runs no code (an EOA), which signs with 65 bytes (r, s, v), the only form the contract checks an account without code by; this one has ${bytes}`,
      { path: "$.signature", account, bytes, reason: "eoa_length" },
    );
  const v = parseInt(signature.slice(2 + 128), 16);
  if (v === 0 || v === 1)
    return new EdgeError(
      "invalid_claim_signature",
      `$.signature: the last byte is the y-parity ${v}, not v (27 or 28), which the contract refuses for ${account}, an account without code (an EOA); give v = ${v + 27}`,
      { path: "$.signature", account, reason: "v_not_27_28" },
    );
  const s = BigInt(`0x${signature.slice(2 + 64, 2 + 128)}`);
  if (s > SECP256K1_HALF_ORDER)
    return new EdgeError(
      "invalid_claim_signature",
      `$.signature: s is above half the curve order (the malleable high-s form, which the contract refuses for ${account}, an account without code: an EOA); sign again: signers give the low-s form`,
      { path: "$.signature", account, reason: "high_s" },
    );
  return null;
}

/**
 * 422 `invalid_claim_signature` (`reason: "erc1271_rejected"`) for `account`, a smart-contract wallet: its
 * `isValidSignature` (ERC-1271) refused the signature of the claim over `nonce` when the bounty contract
 * asked, in the simulation of `claimWithSig` or (`atEstimate`) only at its send's gas estimate, a wallet whose
 * answer depends on the gas price (it reverted `InvalidClaimSignature` with the credit still there); nothing
 * was sent (probe36 C-F3: the contract's judgement of a wallet's own format, never a 502; probe37 C-N1: at
 * the estimate it was 502 `chain_error` "the RPC refused the call").
 */
function erc1271Rejected(
  input: RelayClaimInput,
  bountyId: bigint,
  nonce: bigint,
  atEstimate: boolean,
): EdgeError {
  const where = atEstimate ? "the gas estimate of claimWithSig's send" : "claimWithSig's simulation";
  return new EdgeError(
    "invalid_claim_signature",
    `$.signature: ${input.account} is a smart-contract wallet, and its isValidSignature (ERC-1271) refused this signature of Claim(bounty ${bountyId}, to ${input.to}, nonce ${nonce}, deadline ${input.deadline}) when the bounty contract asked (${where} reverted InvalidClaimSignature); nothing was sent`,
    {
      path: "$.signature",
      account: input.account,
      nonce: nonce.toString(),
      bounty_id: bountyId.toString(),
      reason: "erc1271_rejected",
    },
  );
}

/**
 * 422 `claim_expired` naming `$.deadline`: the claim's `deadline` (unix seconds) is not after `timestamp`,
 * the latest block's time (every block it could be mined in is later, and the contract refuses a claim
 * mined after its deadline: `ClaimSignatureExpired`) or the pending block's (`block`), where the send's
 * gas estimate failed.
 */
function claimExpired(deadline: bigint, timestamp: bigint, block: "latest" | "pending"): EdgeError {
  return new EdgeError(
    "claim_expired",
    block === "latest"
      ? `$.deadline: ${deadline} is not after the latest block's time ${timestamp}: every block it could be mined in is later`
      : `$.deadline: ${deadline} is not after the time ${timestamp} of the block it would be mined in (the pending block): it has expired`,
    {
      path: "$.deadline",
      deadline: deadline.toString(),
      block_timestamp: timestamp.toString(),
      block,
    },
  );
}

/**
 * Runs the `claimWithSig` simulation and send: a `NothingToClaim` revert is 409 `no_credit`, the code
 * of the credit check before it (a claim of the winner's own, mined between that check and the
 * simulation, took the credit: probe11 O13); so is an `InvalidClaimSignature` while the credit at the
 * `pending` block (`pendingCredit`) is 0: the signed nonce was used by the same claim relayed elsewhere (another
 * `serve` on the same store, another relayer) and mined since the checks (probe30 C-F4: answered 502
 * `chain_error`). A failure without a decoded reason (a revert `unknown`,
 * or the gateway's failed gas estimate at the pending block) re-reads the credit at the `pending` block
 * through `pendingCredit`: 0 there means the winner's own claim is in
 * the mempool, not yet mined (probe12 P7), and is 409 `no_credit` too. Such a failure of a claim whose
 * `expiry.deadline` (unix seconds) is at or before the pending block's time (`expiry.pendingTime`) is 422
 * `claim_expired`: its deadline passed between the latest block and the next (probe26 C-F1: the estimate at
 * the pending block reverted `ClaimSignatureExpired` undecoded, answered 502 `chain_error` blaming the
 * RPC). Any other failure (or a failing re-read) is `chain_error` naming it.
 */
export async function relayRead<T>(
  what: string,
  account: string,
  bountyId: bigint,
  fn: () => Promise<T>,
  pendingCredit?: () => Promise<bigint>,
  expiry?: { deadline: bigint; pendingTime: () => Promise<bigint> },
): Promise<T> {
  try {
    return await fn();
  } catch (e) {
    if (e instanceof EdgeError) throw e; // the relay's own refusal (its deadline), as it is
    const err = chainError(what, e);
    const noCredit = (why: string) => noCreditFor(account, bountyId, why);
    if (err.details.revert === "NothingToClaim") throw noCredit("claimed while this relay was checked");
    // the signed nonce used since the checks: the same claim relayed by another process on this store or by
    // another relayer, mined in between (probe30 C-F4: 502 "InvalidClaimSignature" for a claim just paid);
    // with the credit gone that is the claim's no_credit, never a bad signature
    // (at the send's gas estimate, the pending block, the undecoded case's reading below says it)
    const atEstimate = err.details.at === "gas_estimate";
    if (err.details.revert === "InvalidClaimSignature" && !atEstimate && pendingCredit) {
      const left = await pendingCredit().catch(() => undefined);
      if (left === 0n) throw noCredit("claimed by another relay since this relay's checks");
    }
    // undecoded: a revert without a reason, or (since the send goes through the gateway's writer) a gas
    // estimate that failed at the pending block: the credit there says whether a claim is pending (probe25 A-F3)
    // (a revert the estimate's answer names, `details.at` "gas_estimate", ran at the pending block too)
    const undecoded = err.details.revert === undefined || err.details.revert === "unknown" || atEstimate;
    if (undecoded && pendingCredit) {
      const pending = await pendingCredit().catch(() => undefined);
      if (pending === 0n) throw noCredit("a claim of it is pending, not yet mined");
    }
    if (undecoded && expiry) {
      const at = await expiry.pendingTime().catch(() => undefined);
      if (at !== undefined && expiry.deadline <= at) throw claimExpired(expiry.deadline, at, "pending");
    }
    throw err;
  }
}

/**
 * 503 `server_busy` (`Retry-After: 5`): the relay of `account`'s claim was not begun, or not sent, by its
 * deadline (another claim was being sent or mined, or the chain answered slowly); nothing was sent.
 */
function notSentInTime(account: string, why: string): EdgeError {
  return new EdgeError(
    "server_busy",
    `the claim of ${account} was not relayed: ${why}; nothing was sent: post the same signed claim again`,
    { account, retry_after_seconds: 5 },
    { "retry-after": "5" },
  );
}

/**
 * Waits for a sent claim until `deadline` (unix ms) and returns its block.
 * @throws EdgeError `claim_pending` (not mined by then, or the chain could not be read after the send:
 *   `details.tx_hash`); PlatformError `chain_error` (reverted, or dropped: nothing claimed)
 */
async function minedBy(
  chain: NonNullable<Platform["chain"]>,
  hash: Hash,
  deadline: number,
  input: RelayClaimInput,
  bountyId: bigint,
): Promise<number> {
  const pending = (why: string) =>
    new EdgeError(
      "claim_pending",
      `claimWithSig transaction ${hash} was sent and is not mined yet (${why}): do not sign again; once it is mined the credit goes to ${input.to.toLowerCase()}`,
      {
        tx_hash: hash,
        account: input.account.toLowerCase(),
        to: input.to.toLowerCase(),
        bounty_id: bountyId.toString(),
      },
    );
  let outcome: Awaited<ReturnType<typeof chain.waitWithin>>;
  try {
    outcome = await chain.waitWithin(hash, deadline - Date.now(), "claimWithSig");
  } catch (e) {
    // sent: whatever the chain's reads say now, the answer names the transaction (probe25 A-F7: an RPC
    // failure during the wait was a 502 without the hash, and the claim was mined afterwards)
    if (!(e instanceof PlatformError && e.code === "chain_error")) throw e;
    throw pending(`the chain could not be read to see whether it is mined: ${e.message}`);
  }
  if (outcome.state === "pending") throw pending("the request's time ran out");
  if (outcome.state !== "mined")
    throw new PlatformError(
      "chain_error",
      outcome.state === "reverted"
        ? `claimWithSig: transaction ${hash} reverted`
        : `claimWithSig: transaction ${hash} was dropped before it was mined (the node no longer knows it): nothing was claimed; post the signed claim again`,
      { tx_hash: hash },
    );
  return outcome.block;
}

/**
 * 503 `relay_unavailable` (`Retry-After: 300`): the service's account cannot pay the claim's gas (the
 * gateway's refusal, `details.no_gas`); nothing was sent, the credit stays. Said to the winner as what
 * they can do, never the operator's "send it ETH" as a chain failure (probe33 C-F7: 502 `chain_error`).
 */
function relayWithoutGas(account: string, e: PlatformError): EdgeError {
  return new EdgeError(
    "relay_unavailable",
    `the claim of ${account} was not relayed: this service's account cannot pay its gas now; nothing was sent and the credit stays: post the same signed claim again later, or claim from an account that holds ETH`,
    {
      account,
      relayer: e.details.address,
      chain_id: e.details.chain_id,
      retry_after_seconds: 300,
    },
    { "retry-after": "300" },
  );
}

/** The EdgeError `no_credit` of a relay: `account` has no credit in `bountyId`; `why` says what was seen. */
function noCreditFor(account: string, bountyId: bigint, why: string): EdgeError {
  return new EdgeError("no_credit", `${account} has no credit in bounty ${bountyId} (${why})`, {
    path: "$.account",
    account,
    bounty_id: bountyId.toString(),
  });
}

/**
 * Why an account of an Awarded bounty has no credit: its places of the award mined here that credited 0
 * base units (a small pool's split rounds a place down, SPEC 6: probe29 C-F4, such a winner was told "never
 * won"), else "never won, or already claimed".
 */
function awardedNoCreditWhy(places: readonly AwardedPlace[]): string {
  if (places.length === 0 || places.some((p) => p.amount_base_units !== "0"))
    return "never won, or already claimed";
  const which = places.map((p) => p.place).join(", ");
  return `${places.length === 1 ? "its place" : "its places"} ${which} of the award ${places.length === 1 ? "was" : "were"} credited 0 base units (the pool's split rounds it down, SPEC 6): there is nothing to claim`;
}

/**
 * Why a bounty that is neither awarded nor reclaimed holds no credit: before its `closesAt` (by the latest
 * block's time) the contest is still open and no award can come yet (probe33 C-F10: "its award may be
 * pending" was said before the close); from it on, the award may be pending.
 */
async function notAwardedWhy(
  client: NonNullable<Platform["chain"]>["publicClient"],
  read: <T>(what: string, fn: () => Promise<T>) => Promise<T>,
  bounty: Address,
  bountyId: bigint,
  status: string,
): Promise<string> {
  const [{ closesAt }, block] = await Promise.all([
    read("read getBounty", () =>
      client.readContract({
        address: bounty,
        abi: benchmarkBountyAbi,
        functionName: "getBounty",
        args: [bountyId],
      }),
    ),
    read("read the latest block", () => client.getBlock()),
  ]);
  return block.timestamp < closesAt
    ? `the bounty is ${status} on-chain and its contest is still open: it closes at ${closesAt} (unix seconds; the latest block's time is ${block.timestamp}), and no award comes before then`
    : `the bounty is ${status} on-chain, not awarded yet: its award may be pending; post the claim again once it is mined`;
}

/**
 * `account`'s credit in `bountyId` and its claim nonce, as the latest block has them (two reads).
 * @param placesOf `account`'s places in the benchmark's award as mined here (`Platform.awardedPlaces`),
 *   read only to say why an Awarded bounty holds no credit for it
 * @returns the credit (base units, never 0) and `nonces(account)`
 * @throws EdgeError `no_credit` (credit 0: never won, already claimed, its place credited 0, or the
 *   bounty reclaimed or not awarded yet); PlatformError `chain_error`
 */
async function creditAndNonce(
  client: NonNullable<Platform["chain"]>["publicClient"],
  read: <T>(what: string, fn: () => Promise<T>) => Promise<T>,
  input: RelayClaimInput,
  bounty: Address,
  bountyId: bigint,
  placesOf: () => Promise<AwardedPlace[]>,
): Promise<{ credit: bigint; nonce: bigint }> {
  const credit = await read("read creditOf", () =>
    client.readContract({
      address: bounty,
      abi: benchmarkBountyAbi,
      functionName: "creditOf",
      args: [bountyId, input.account],
    }),
  );
  if (credit === 0n) {
    // why there is none, from the bounty's status (probe28 C-F12: a winner whose award was one block away
    // was told "never won, or already claimed")
    const status = await read("read statusOf", () =>
      client.readContract({
        address: bounty,
        abi: benchmarkBountyAbi,
        functionName: "statusOf",
        args: [bountyId],
      }),
    );
    throw noCreditFor(
      input.account,
      bountyId,
      Number(status) === BountyStatus.Awarded
        ? awardedNoCreditWhy(await placesOf())
        : Number(status) === BountyStatus.Reclaimed
          ? "the bounty was reclaimed by its author: nothing was awarded"
          : await notAwardedWhy(
              client,
              read,
              bounty,
              bountyId,
              BountyStatus[Number(status)] ?? String(status),
            ),
    );
  }
  const nonce = await read("read nonces", () =>
    client.readContract({
      address: bounty,
      abi: benchmarkBountyAbi,
      functionName: "nonces",
      args: [input.account],
    }),
  );
  return { credit, nonce };
}

/**
 * The read-only checks of a relayed claim (the module's comment), run before its turn is taken so that a
 * refusal never takes it (probe28 A-F3): its deadline against the latest block, `account`'s credit, and the
 * signature over the current nonce.
 * @param hasCode whether `account` runs code (read once at most by the caller), asked only when viem's
 *   check does not verify the signature: for an account with code the claim goes on, and its wallet's
 *   `isValidSignature` is judged by the contract in the simulation (probe36 C-F3)
 * @returns the credit (base units) and the nonce the signature was checked over
 * @throws EdgeError `claim_expired`, `no_credit`, `invalid_claim_signature`; PlatformError `chain_error`
 */
async function checkRelayable(
  client: NonNullable<Platform["chain"]>["publicClient"],
  read: <T>(what: string, fn: () => Promise<T>) => Promise<T>,
  input: RelayClaimInput,
  domain: ReturnType<typeof claimDomain>,
  bountyId: bigint,
  placesOf: () => Promise<AwardedPlace[]>,
  hasCode: () => Promise<boolean>,
): Promise<{ credit: bigint; nonce: bigint }> {
  const block = await read("read the latest block", () => client.getBlock());
  // mined in a later block, whose time is after the latest's (probe26 C-F1: a deadline equal to it passed)
  if (input.deadline <= block.timestamp) throw claimExpired(input.deadline, block.timestamp, "latest");
  const { credit, nonce } = await creditAndNonce(
    client,
    read,
    input,
    domain.verifyingContract,
    bountyId,
    placesOf,
  );
  const signed = await read("check the signature", () =>
    client.verifyTypedData({
      address: input.account,
      domain,
      types: CLAIM_TYPES,
      primaryType: CLAIM_PRIMARY_TYPE,
      message: { bountyId, account: input.account, to: input.to, nonce, deadline: input.deadline },
      signature: input.signature,
    }),
  );
  // viem's check of a smart-contract wallet's signature (through its ERC-6492 validator) cannot judge
  // every format (an empty one, a wallet answering by its caller): a wallet's refusal is the contract's to
  // say, in the simulation (`erc1271Rejected`); only an account without code is refused here
  if (!signed && !(await hasCode()))
    throw new EdgeError(
      "invalid_claim_signature",
      `$.signature: not ${input.account}'s signature of Claim(bounty ${bountyId}, to ${input.to}, nonce ${nonce}, deadline ${input.deadline})`,
      {
        path: "$.signature",
        account: input.account,
        nonce: nonce.toString(),
        bounty_id: bountyId.toString(),
      },
    );
  return { credit, nonce };
}

/**
 * Inside the relay's turn, right before the send: the credit and nonce again, as the relays before it in
 * the queue may have changed them since {@link checkRelayable} (the same claim relayed twice: its credit is
 * 0 now; another claim of `account`'s, of another bounty, relayed first: its nonce moved and the checked
 * signature no longer holds, which the contract would refuse).
 * @returns the credit (base units)
 * @throws EdgeError `no_credit`, `invalid_claim_signature` (`details.nonce` the checked nonce,
 *   `details.current_nonce` the one now); PlatformError `chain_error`
 */
async function recheckAtTurn(
  client: NonNullable<Platform["chain"]>["publicClient"],
  read: <T>(what: string, fn: () => Promise<T>) => Promise<T>,
  input: RelayClaimInput,
  bounty: Address,
  bountyId: bigint,
  checkedNonce: bigint,
  placesOf: () => Promise<AwardedPlace[]>,
): Promise<bigint> {
  const { credit, nonce } = await creditAndNonce(client, read, input, bounty, bountyId, placesOf);
  if (nonce !== checkedNonce)
    throw new EdgeError(
      "invalid_claim_signature",
      `$.signature: signed over nonce ${checkedNonce} of ${input.account}, which a claim relayed before it used (the nonce is now ${nonce}): sign the claim again over nonce ${nonce}; nothing was sent`,
      {
        path: "$.signature",
        account: input.account,
        nonce: checkedNonce.toString(),
        current_nonce: nonce.toString(),
        bounty_id: bountyId.toString(),
      },
    );
  return credit;
}

/**
 * The `relayClaim` operation of the Domain over a platform with a chain: `(principal, slug, input,
 * opts)`, `opts.answerBy` (unix ms) the request's deadline (`AppEnv.awardBy`; default 180 s from the call,
 * `DEFAULT_AWARD_WAIT_MS`). The read-only checks (the signature's form for an account without code, block,
 * credit, nonce, signature, the code `to` runs) run before the relay takes its turn, so a refused claim never
 * takes one (probe28 A-F3; a smart-contract wallet's signature, judged only by the simulation, aside); inside the turn, one
 * relay at a time per process in the order their checks end, only the credit and nonce are read again
 * before the send.
 * See the module's comment for what the deadline bounds.
 * @param exclusive the turns the relays of this operation take (a new queue by default; a test counts them)
 * @returns the {@link RelayedClaim} once mined
 * @throws EdgeError `server_busy` (the deadline came before the relay's turn or its send: nothing sent),
 *   `claim_pending` (sent, or its send's answer lost and so taken as sent, not mined by the deadline:
 *   `details.tx_hash`), `claim_expired`, `no_credit`,
 *   `invalid_claim_signature` (also a nonce used by a claim relayed before its turn: `details.current_nonce`;
 *   a smart-contract wallet's refusal at the simulation: `reason: "erc1271_rejected"`), `invalid_request` (an
 *   EOA's signature of fewer than 65 bytes);
 *   PlatformError `invalid_withdrawal_address` naming `$.to` (the withdrawal-address rule, its code rule
 *   included: `reason: "platform_contract"` for a BenchmarkBounty or AnchorRegistry deployed elsewhere; or
 *   blacklisted by the token: `reason: "token_blacklisted"`); EdgeError `token_refused` (the token refused
 *   the transfer for another reason: the bounty contract blacklisted, a paused token); `unknown_benchmark`, `no_chain`,
 *   `no_bounty`, `bounty_mismatch`, `chain_error`
 */
export function relayClaimOp(platform: Platform, exclusive: Turns = turnQueue()) {
  return async (
    p: Parameters<typeof requirePrincipal>[0],
    slug: string,
    input: RelayClaimInput,
    opts: { answerBy?: number } = {},
  ): Promise<JsonValue> => {
    const deadline = opts.answerBy ?? Date.now() + DEFAULT_AWARD_WAIT_MS;
    requirePrincipal(p);
    // The credit goes to `to`: the zero address or one of our contracts (the USDC token, the bounty)
    // would lose it for good, so the rule of withdrawal addresses holds here too (422 naming $.to).
    platform.checkWithdrawalAddress(input.to, "to");
    // the attached bounty, on this process's chain and contract (else bounty_mismatch, nothing read)
    const { chain, bounty: attached } = await platform.attachedChain(slug);
    // whether `account` runs code, the contract's own switch between ECDSA and ERC-1271
    // (SignatureChecker): one eth_getCode, read only when a check needs it, at most once
    let code: Promise<boolean> | undefined;
    const hasCode = () => (code ??= chain.codeAt(input.account).then((c) => c !== "0x"));
    // the ECDSA form (65 bytes, v 27/28, low s) is an EOA's rule: refused before any other chain read
    // (probe10 R8, probe11 O12) once the account is read to run no code; a smart-contract wallet's own
    // format goes on to its isValidSignature (probe36 C-F3: it was refused "which the contract refuses")
    const eoaProblem = eoaSignatureProblem(input.signature, input.account);
    if (eoaProblem && !(await hasCode())) throw eoaProblem;
    const bounty = attached.bounty_contract as Address;
    const bountyId = BigInt(attached.bounty_id);
    const client = chain.publicClient;
    // the gateway's own wording, details and operator's log for a failing read (probe26 A-F7: a bare
    // 502 `details: {}` and nothing logged)
    const read = <T>(what: string, fn: () => Promise<T>): Promise<T> => chain.read(what, fn);
    // the read-only checks before the turn: a refusal never takes it, so claims that can never be sent
    // (no credit, a wrong signature) do not queue a winner's claim behind them (probe28 A-F3)
    const placesOf = () => platform.awardedPlaces(slug, input.account);
    const checked = await checkRelayable(
      client,
      read,
      input,
      claimDomain(attached.chain_id, bounty),
      bountyId,
      placesOf,
      hasCode,
    );
    // the code `to` runs: a BenchmarkBounty or AnchorRegistry deployed elsewhere could never claim the
    // credit (the withdrawal address's whole rule, one eth_getCode; probe28 C-F3: it was paid)
    await platform.checkWithdrawalAddressOnChain(input.to, "to");
    // one relay at a time, in the order the checks end: a claim whose turn has not come by the deadline is
    // never sent
    const late = (when: LateTurn) =>
      notSentInTime(
        input.account,
        when === "at_turn"
          ? "its turn came after the request's deadline"
          : "the relays before it took until the request's deadline",
      );
    return exclusive(
      async () => {
        // what the relays before it may have changed: the credit and the nonce, right before the send
        const credit = await recheckAtTurn(client, read, input, bounty, bountyId, checked.nonce, placesOf);
        const hash = await relayRead(
          "claimWithSig",
          input.account,
          bountyId,
          // a send whose answer was lost after the signed transaction left is taken as sent (its hash,
          // signed here) and waited for like any other, never read as a refusal (probe34 C-F5: the credit
          // at `pending`, 0 because of this very transaction, was answered `no_credit`)
          () =>
            sendOrLose(() =>
              chain.sendClaimWithSig(
                bounty,
                {
                  bountyId,
                  account: input.account,
                  to: input.to,
                  deadline: input.deadline,
                  signature: input.signature,
                },
                {
                  // the platform's own chain writes (anchors, an award) take turns with it: one nonce sequence
                  turn: {
                    deadline,
                    late: () =>
                      notSentInTime(
                        input.account,
                        "the platform's own chain writes before it took until the request's deadline",
                      ),
                  },
                  // the one irreversible step: never begun at or past the deadline (its caller is answered
                  // that nothing was sent), checked after every read the send needs
                  beforeSend: () => {
                    if (Date.now() >= deadline)
                      throw notSentInTime(
                        input.account,
                        "the chain answered too slowly to send it by the request's deadline",
                      );
                  },
                },
              ),
            ),
          () =>
            client.readContract({
              address: bounty,
              abi: benchmarkBountyAbi,
              functionName: "creditOf",
              args: [bountyId, input.account],
              blockTag: "pending",
            }),
          {
            deadline: input.deadline,
            pendingTime: async () => (await client.getBlock({ blockTag: "pending" })).timestamp,
          },
        ).catch(async (e: unknown) => {
          if (e instanceof PlatformError && e.details.no_gas === true)
            throw relayWithoutGas(input.account, e);
          // a smart-contract wallet that refused the signature when the bounty contract asked (its answer
          // may depend on the caller, the block, its state): the wallet's refusal, never a chain failure
          // (probe36 C-F3); a code read that fails leaves the simulation's error as it is
          if (
            e instanceof PlatformError &&
            e.details.revert === "InvalidClaimSignature" &&
            (await hasCode().catch(() => false))
          )
            throw erc1271Rejected(input, bountyId, checked.nonce, e.details.at === "gas_estimate");
          // the token refused the transfer: whom it refuses is read from its blacklist (probe27 C-F7, probe31 C-F4)
          if (e instanceof PlatformError)
            throw await tokenRefusal(e, client, attached.token as Address, input.to, bounty);
          throw e;
        });
        const mined = await minedBy(chain, hash, deadline, input, bountyId);
        const out: RelayedClaim = {
          slug,
          bounty_id: bountyId.toString(),
          account: input.account.toLowerCase(),
          to: input.to.toLowerCase(),
          amount_base_units: credit.toString(),
          tx_hash: hash,
          block_number: String(mined),
          relayer: chain.address,
        };
        return out as unknown as JsonValue;
      },
      { deadline, late },
    );
  };
}
