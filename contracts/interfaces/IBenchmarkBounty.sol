// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

/// @title IBenchmarkBounty
/// @notice USDC prizes for AI-agent benchmarks, locked against a committed test set (SPEC 1.1).
/// @dev Status ladder (event-derived, never skips, terminal states final):
///      `Pending -> Funded -> Awarded | Reclaimed`, and `Pending -> Reclaimed` (an author cancels).
///      Money only moves by the rules below: there is no owner, admin, pause or upgrade path.
///      Invariant, for every token: `balanceOf(this) >= sum(pool of Funded bounties) + sum(unclaimed credit)`,
///      with equality unless someone transfers tokens to the contract directly (that surplus belongs to no
///      bounty and is never paid out).
///      Test-set roots are bound and burned per author (v1.1): another author's bounty on the same root
///      neither blocks nor burns it.
///      Amounts are token base units, times are unix seconds, shares are basis points (10000 = whole pool).
interface IBenchmarkBounty {
    /// @notice Lifecycle state of a bounty. `None` means the id was never created.
    enum Status {
        None,
        Pending,
        Funded,
        Awarded,
        Reclaimed
    }

    /// @notice What an author fixes when creating a bounty.
    /// @param token ERC-20 the prize is paid in (USDC on Base).
    /// @param awarder The only address allowed to settle the award (the platform or the author).
    /// @param pool Prize in token base units (> 0).
    /// @param testSetRoot Merkle root of the hidden test set (SPEC 3, != 0).
    /// @param leafCount Number of leaves under `testSetRoot` (> 0).
    /// @param closesAt Unix seconds at which competition closes and the award window opens; in the future at
    ///        creation (v1.1).
    /// @param awardDeadline Unix seconds after which an unawarded pool returns to the author (> closesAt).
    /// @param thresholdBps Minimum composite score to win, in bps (<= 10000; enforced off-chain, SPEC 7.2).
    /// @param splitsBps Per-place shares: 1..8 places, each > 0, non-increasing, summing to 10000.
    struct BountyParams {
        address token;
        address awarder;
        uint256 pool;
        bytes32 testSetRoot;
        uint32 leafCount;
        uint64 closesAt;
        uint64 awardDeadline;
        uint16 thresholdBps;
        uint16[] splitsBps;
    }

    /// @notice A bounty as returned by `getBounty` (see `BountyParams` for the fields' meaning).
    struct Bounty {
        address author;
        address awarder;
        address token;
        uint256 pool;
        bytes32 testSetRoot;
        uint32 leafCount;
        uint64 closesAt;
        uint64 awardDeadline;
        uint16 thresholdBps;
        Status status;
        uint16[] splitsBps;
    }

    // ---------------------------------------------------------------- errors

    /// @notice `createBounty` with `token == address(0)`.
    error ZeroToken();
    /// @notice `createBounty` with a token address that holds no code (v1.1): nothing could ever be paid.
    error TokenWithoutCode(address token);
    /// @notice `createBounty` with `awarder == address(0)`: nobody could ever award it.
    error ZeroAwarder();
    /// @notice `createBounty` with `pool == 0`.
    error ZeroPool();
    /// @notice `createBounty` with `testSetRoot == bytes32(0)`.
    error ZeroTestSetRoot();
    /// @notice `createBounty` with `leafCount == 0`.
    error ZeroLeafCount();
    /// @notice `thresholdBps` above 10000 (the whole score).
    error ThresholdAboveWhole(uint16 thresholdBps);
    /// @notice `createBounty` with `closesAt` at or before the block's `timestamp` (v1.1).
    error ClosesAtNotInFuture(uint64 closesAt, uint256 timestamp);
    /// @notice `awardDeadline` is not strictly after `closesAt`.
    error AwardDeadlineNotAfterClose(uint64 closesAt, uint64 awardDeadline);
    /// @notice `author` revealed `testSetRoot` by an award: a burned test set is never reused by that author.
    error RootBurned(address author, bytes32 testSetRoot);
    /// @notice `author` has bound `testSetRoot` to their bounty `bountyId`, which is neither Awarded nor Reclaimed.
    error RootBoundToLiveBounty(address author, bytes32 testSetRoot, uint256 bountyId);
    /// @notice No bounty has id `bountyId`.
    error UnknownBounty(uint256 bountyId);
    /// @notice Only the bounty's author may call this.
    error NotAuthor(uint256 bountyId, address caller);
    /// @notice Only the bounty's awarder may call this.
    error NotAwarder(uint256 bountyId, address caller);
    /// @notice `fund` needs a Pending bounty.
    error BountyNotPending(uint256 bountyId, Status status);
    /// @notice `fund` at or after the bounty's `closesAt` (v1.1): nobody could compete for a prize locked so late.
    error FundAfterClose(uint256 bountyId, uint64 closesAt, uint256 timestamp);
    /// @notice `award` needs a Funded bounty.
    error BountyNotFunded(uint256 bountyId, Status status);
    /// @notice `reclaim` of a bounty already Awarded or Reclaimed.
    error BountyAlreadySettled(uint256 bountyId, Status status);
    /// @notice The contract's token balance grew by `received` instead of `expected` (fee-on-transfer tokens are refused).
    error FundingShortfall(uint256 expected, uint256 received);
    /// @notice The permit failed without a reason of its own and the allowance (`allowance`) does not cover `pool`.
    ///         When the token's permit reverts with a reason (a paused or blacklisting USDC), that reason is
    ///         bubbled up instead (v1.1).
    error PermitFailedAndAllowanceShort(uint256 allowance, uint256 pool);
    /// @notice `award` before the bounty closes.
    error AwardBeforeClose(uint64 closesAt, uint256 timestamp);
    /// @notice `award` after the award deadline.
    error AwardAfterDeadline(uint64 awardDeadline, uint256 timestamp);
    /// @notice More winners (`winners`) than paid places (`places`).
    error TooManyWinners(uint256 winners, uint256 places);
    /// @notice Winner at `place` (0-based) is the zero address (a winner without a withdrawal address).
    error ZeroAddressWinner(uint256 place);
    /// @notice `account` has no credit in `bountyId`.
    error NothingToClaim(uint256 bountyId, address account);
    /// @notice A payment (`claim`, `claimMany`, `claimWithSig`, `reclaim`) to the zero address or to this
    ///         contract itself (v1.1): the tokens would be lost.
    error InvalidRecipient(address to);
    /// @notice `reclaim` of a Funded bounty at or before its award deadline.
    error ReclaimBeforeDeadline(uint256 bountyId, uint64 awardDeadline, uint256 timestamp);
    /// @notice `claimWithSig` after the signature's `deadline` (v1.1).
    error ClaimSignatureExpired(uint256 deadline, uint256 timestamp);
    /// @notice `claimWithSig` whose signature is not `account`'s over this exact claim (v1.1): signed by
    ///         someone else, for another bounty, recipient or deadline, over a nonce already used, or an ECDSA
    ///         signature with a malleable (upper-half) `s`.
    error InvalidClaimSignature(address account);

    // ---------------------------------------------------------------- events

    /// @notice A bounty was created (status Pending).
    event BountyCreated(
        uint256 indexed bountyId,
        address indexed author,
        address indexed token,
        address awarder,
        bytes32 testSetRoot,
        uint32 leafCount,
        uint256 pool,
        uint64 closesAt,
        uint64 awardDeadline,
        uint16 thresholdBps,
        uint16[] splitsBps
    );

    /// @notice The pool was pulled from `funder` (status Funded).
    event BountyFunded(uint256 indexed bountyId, address indexed funder, uint256 amount);

    /// @notice The award settled (status Awarded): `amounts[i]` credited to `winners[i]`,
    ///         `authorRemainder` credited to the author; `testSetRoot` is burned.
    /// @param rankingDigest keccak256 of the canonical JSON of the evidence pack's `rank_derivation` (SPEC 8).
    event Awarded(
        uint256 indexed bountyId,
        bytes32 indexed testSetRoot,
        address[] winners,
        uint256[] amounts,
        uint256 authorRemainder,
        bytes32 rankingDigest
    );

    /// @notice `account` withdrew its whole credit in `bountyId`, paid to `to`.
    event Claimed(uint256 indexed bountyId, address indexed account, address indexed to, uint256 amount);

    /// @notice The author took the bounty back (status Reclaimed), `amount` paid to `to` (v1.1); `amount` is 0
    ///         for a Pending bounty.
    event Reclaimed(uint256 indexed bountyId, address indexed author, address indexed to, uint256 amount);

    // ------------------------------------------------------------- functions

    /// @notice Creates a bounty in status Pending; the caller is its author.
    /// @return bountyId Sequential id, from 1.
    /// @dev Reverts ZeroToken, TokenWithoutCode, ZeroAwarder, ZeroPool, ZeroTestSetRoot, ZeroLeafCount,
    ///      ThresholdAboveWhole, ClosesAtNotInFuture, AwardDeadlineNotAfterClose, PayoutMath's splits errors,
    ///      and RootBurned / RootBoundToLiveBounty for a root the caller burned or bound (v1.1: per author).
    function createBounty(BountyParams calldata p) external returns (uint256 bountyId);

    /// @notice Pulls exactly `pool` of the bounty's token from its author (allowance needed); status Funded.
    /// @dev Reverts UnknownBounty, NotAuthor, BountyNotPending, FundAfterClose, FundingShortfall.
    function fund(uint256 bountyId) external;

    /// @notice `createBounty` then `fund` in one transaction.
    function createAndFund(BountyParams calldata p) external returns (uint256 bountyId);

    /// @notice `createAndFund` with an EIP-2612 permit of `p.pool` to this contract. A permit that fails
    ///         (for example because someone front-ran it) is ignored when the allowance already covers the pool.
    /// @dev When the permit fails and the allowance is short, reverts with the token's own revert data (for
    ///      example USDC's "Pausable: paused"), or PermitFailedAndAllowanceShort when the token gave none.
    function createAndFundWithPermit(
        BountyParams calldata p,
        uint256 deadline,
        uint8 v,
        bytes32 r,
        bytes32 s
    ) external returns (uint256 bountyId);

    /// @notice Settles a Funded bounty: credits `winners[i]` with place i's amount (SPEC 7.3), the rest
    ///         (the whole pool when there are no winners) to the author; burns the test-set root; status Awarded.
    /// @param winners Paid places in rank order; at most `splitsBps.length`; the same address may repeat.
    /// @param rankingDigest keccak256 of the canonical JSON of the pack's `rank_derivation` (SPEC 8).
    /// @dev Awarder only, `closesAt <= block.timestamp <= awardDeadline`. Reverts UnknownBounty, NotAwarder,
    ///      BountyNotFunded, AwardBeforeClose, AwardAfterDeadline, TooManyWinners, ZeroAddressWinner.
    function award(uint256 bountyId, address[] calldata winners, bytes32 rankingDigest) external;

    /// @notice Pays the caller's whole credit in `bountyId` to `to` (which may differ from the caller).
    /// @return amount Base units paid.
    /// @dev Reverts InvalidRecipient (zero or this contract), NothingToClaim.
    function claim(uint256 bountyId, address to) external returns (uint256 amount);

    /// @notice `claim` for each of `bountyIds` (each must hold credit), all paid to `to`.
    /// @return total Sum paid, base units (tokens may differ between bounties).
    function claimMany(uint256[] calldata bountyIds, address to) external returns (uint256 total);

    /// @notice A relayer submits `account`'s claim (v1.1): `account`'s whole credit in `bountyId` is paid to `to`,
    ///         never to the relayer, so a winner holding no ETH is still paid.
    /// @param signature EIP-712 signature by `account` over `Claim(uint256 bountyId,address account,address to,
    ///        uint256 nonce,uint256 deadline)` in the domain `{name: "BenchmarkBounty", version: "1", chainId,
    ///        verifyingContract}`, with `nonce = nonces(account)`: ECDSA (65 bytes, lower-half `s`) for an EOA,
    ///        or whatever `account.isValidSignature` (ERC-1271) accepts for a smart-contract wallet.
    /// @param deadline Last unix second at which the signature may be used.
    /// @return amount Base units paid.
    /// @dev Uses the nonce (`nonces(account)` grows by one). Reverts ClaimSignatureExpired, InvalidRecipient,
    ///      InvalidClaimSignature, NothingToClaim.
    function claimWithSig(
        uint256 bountyId,
        address account,
        address to,
        uint256 deadline,
        bytes calldata signature
    ) external returns (uint256 amount);

    /// @notice The author takes the bounty back: a Pending bounty at any time (cancel, nothing to return),
    ///         a Funded one only after `awardDeadline` (the pool is paid to `to`, so a blacklisted author still
    ///         recovers it, v1.1). Status Reclaimed; the root is NOT burned.
    /// @dev Reverts InvalidRecipient (zero or this contract), UnknownBounty, NotAuthor, BountyAlreadySettled,
    ///      ReclaimBeforeDeadline.
    function reclaim(uint256 bountyId, address to) external;

    /// @notice The test-set root of a bounty (unchanged by the award); zero for an unknown id.
    function testSetRoots(uint256 bountyId) external view returns (bytes32);

    /// @notice Whether an award of one of `author`'s bounties revealed `root` (v1.1: per author); `author` can
    ///         never back a new bounty with it. Other authors' bounties on the same root do not count.
    function rootBurned(address author, bytes32 root) external view returns (bool);

    /// @notice The next `claimWithSig` nonce of `account` (v1.1).
    function nonces(address account) external view returns (uint256);

    /// @notice EIP-712 type hash of `Claim(uint256 bountyId,address account,address to,uint256 nonce,uint256 deadline)`.
    // solhint-disable-next-line func-name-mixedcase
    function CLAIM_TYPEHASH() external view returns (bytes32);

    /// @notice Leaf count of a bounty's test set; zero for an unknown id.
    function leafCountOf(uint256 bountyId) external view returns (uint32);

    /// @notice Per-place shares in bps; empty for an unknown id.
    function splitsOf(uint256 bountyId) external view returns (uint16[] memory);

    /// @notice Unclaimed credit of `account` in `bountyId`, base units.
    function creditOf(uint256 bountyId, address account) external view returns (uint256);

    /// @notice Status of a bounty (`None` for an unknown id).
    function statusOf(uint256 bountyId) external view returns (Status);

    /// @notice The whole bounty (all zero, status `None`, for an unknown id).
    function getBounty(uint256 bountyId) external view returns (Bounty memory);

    /// @notice Number of bounties created; ids run from 1 to `bountyCount()`.
    function bountyCount() external view returns (uint256);

    /// @notice SPEC 7.3 amounts for `k` winners: `S = sum(splitsBps[0..k-1])`,
    ///         `amount_i = floor(pool * splitsBps[i] / S)`, dust to place 1; empty for k = 0.
    /// @dev Reverts the splits errors on bad splits and TooManyWinners when `k > splitsBps.length`.
    function payoutAmounts(
        uint256 pool,
        uint16[] calldata splitsBps,
        uint256 k
    ) external pure returns (uint256[] memory);
}
