/**
 * Relayed claims (SPEC 1.1 `claimWithSig`, v1.1): a winner signs the EIP-712
 * `Claim` with their key, and another account (the platform, a friend) submits
 * it and pays the gas, so a winner holding no ETH is still paid. The credit goes
 * to the signed `to`, never to the relayer. viem only: no Hardhat here, so any
 * TypeScript caller can use it (`bounty:claim --relay` is one).
 *
 * The typed data is @bench-bounty/contracts' (`claimDomain`, `CLAIM_TYPES`); the contract
 * checks the signature, the nonce and the deadline, and its named errors come
 * back in the thrown viem error (decode them with `decodeRevert`, errors.ts).
 */
import type { Account, Address, Hex, PublicClient, TransactionReceipt, Transport, WalletClient } from "viem";
import { contracts } from "./packages";

/** A wallet client bound to an account (a local key, or an unlocked node account). */
export type AccountWallet = WalletClient<Transport, undefined, Account>;

/** What the winner signs: `account`'s whole credit in `bountyId`, paid to `to`, valid until `deadline` (unix s). */
export interface ClaimRequest {
  /** The BenchmarkBounty contract. */
  bounty: Address;
  chainId: number;
  bountyId: bigint;
  /** The winner whose credit is claimed (the signer). */
  account: Address;
  /** Where the tokens go. */
  to: Address;
  deadline: bigint;
}

/** A signed claim, ready for anyone to submit. */
export interface SignedClaim extends ClaimRequest {
  /** `nonces(account)` when it was signed: the signature is good once. */
  nonce: bigint;
  signature: Hex;
}

/**
 * Signs a claim with the winner's key, for the current `nonces(account)`.
 * Signing is off-chain: it costs the winner nothing.
 * @param claimer the winner's wallet (its account should be `request.account`,
 *   or the contract will refuse the signature)
 */
export async function signClaim(
  publicClient: PublicClient,
  claimer: AccountWallet,
  request: ClaimRequest,
): Promise<SignedClaim> {
  const { benchmarkBountyAbi, claimDomain, CLAIM_TYPES, CLAIM_PRIMARY_TYPE } = contracts();
  const nonce = await publicClient.readContract({
    address: request.bounty,
    abi: benchmarkBountyAbi,
    functionName: "nonces",
    args: [request.account],
  });
  const { bountyId, account, to, deadline } = request;
  const signature = await claimer.signTypedData({
    account: claimer.account,
    domain: claimDomain(request.chainId, request.bounty),
    types: CLAIM_TYPES,
    primaryType: CLAIM_PRIMARY_TYPE,
    message: { bountyId, account, to, nonce, deadline },
  });
  return { ...request, nonce, signature };
}

/**
 * The failure of a relayed claim's send or of its receipt, after its simulation passed: the transaction
 * may be on its way (the node's answer to the send lost, its receipt unreadable; probe34 C-F4), or was
 * mined reverted, or the node refused it. `cause` is viem's error (revert data inside, if any); `hash`
 * the transaction's when the send answered. The caller settles it by the chain (`settleUnansweredSend`
 * of deploy/lib/context.ts: the relayer's transaction of the send's nonce), never as "not sent".
 */
export class ClaimSendFailed extends Error {
  constructor(
    cause: unknown,
    readonly hash: Hex | undefined,
  ) {
    super(`the claimWithSig send${hash ? ` (${hash})` : ""} did not end in a successful receipt`, { cause });
    this.name = "ClaimSendFailed";
  }
}

/**
 * Submits a signed claim from the relayer's account (which pays the gas):
 * simulated first, so a refusal (expired deadline, wrong signer, used nonce, no
 * credit) throws before anything is sent; then sent (once: viem never retries a send) and awaited.
 * @throws the viem error of the simulation (revert data inside); {@link ClaimSendFailed} once the send
 *   was made (its answer lost, refused, reverted or its receipt not read)
 */
export async function submitClaim(
  publicClient: PublicClient,
  relayer: AccountWallet,
  claim: SignedClaim,
): Promise<TransactionReceipt> {
  const { benchmarkBountyAbi } = contracts();
  const { request } = await publicClient.simulateContract({
    account: relayer.account,
    address: claim.bounty,
    abi: benchmarkBountyAbi,
    functionName: "claimWithSig",
    args: [claim.bountyId, claim.account, claim.to, claim.deadline, claim.signature],
  });
  let hash: Hex | undefined;
  try {
    hash = await relayer.writeContract({ ...request, chain: null });
    const receipt = await publicClient.waitForTransactionReceipt({ hash });
    if (receipt.status !== "success") throw new Error(`claimWithSig failed on-chain (tx ${hash})`);
    return receipt;
  } catch (e) {
    throw new ClaimSendFailed(e, hash);
  }
}

/** {@link signClaim} with the winner's wallet, then {@link submitClaim} from the relayer's. */
export async function relayClaim(
  publicClient: PublicClient,
  claimer: AccountWallet,
  relayer: AccountWallet,
  request: ClaimRequest,
): Promise<{ claim: SignedClaim; receipt: TransactionReceipt }> {
  const claim = await signClaim(publicClient, claimer, request);
  return { claim, receipt: await submitClaim(publicClient, relayer, claim) };
}
