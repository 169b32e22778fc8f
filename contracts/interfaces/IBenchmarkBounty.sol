// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

/// @title IBenchmarkBounty
/// @notice USDC prizes for AI-agent benchmarks, locked against a committed test set (SPEC 1.1).
/// @dev Status ladder (event-derived, never skips, terminal states final):
///      `Pending -> Funded -> Awarded | Reclaimed`, and `Pending -> Reclaimed` (an author cancels).
///      Money only moves by the rules below: there is no owner, admin, pause or upgrade path.
///      Invariant, for every token: `balanceOf(this) == sum(pool of Funded bounties) + sum(unclaimed credit)`.
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
    /// @param closesAt Unix seconds at which competition closes; the award window opens.
    /// @param awardDeadline Unix seconds after which an unawarded pool returns to the author (> closesAt, > now).
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
    /// @notice `awardDeadline` is not strictly after `closesAt`.
    error AwardDeadlineNotAfterClose(uint64 closesAt, uint64 awardDeadline);
    /// @notice `awardDeadline` is already in the past at creation: the bounty could never be awarded.
    error AwardDeadlineInPast(uint64 awardDeadline, uint256 timestamp);
    /// @notice `splitsBps` must have 1..8 places.
    error SplitsLengthOutOfRange(uint256 length);
    /// @notice Place `place` (0-based) has a zero share.
    error ZeroSplit(uint256 place);
    /// @notice Place `place` (0-based) has a larger share than the place before it.
    error SplitsIncreasing(uint256 place);
    /// @notice The shares sum to `sumBps` instead of 10000.
    error SplitsSumNotWhole(uint256 sumBps);
    /// @notice `testSetRoot` was revealed by an award: a burned test set is never reused.
    error RootBurned(bytes32 testSetRoot);
    /// @notice `testSetRoot` is bound to `bountyId`, which is neither Awarded nor Reclaimed.
    error RootBoundToLiveBounty(bytes32 testSetRoot, uint256 bountyId);
    /// @notice No bounty has id `bountyId`.
    error UnknownBounty(uint256 bountyId);
    /// @notice Only the bounty's author may call this.
    error NotAuthor(uint256 bountyId, address caller);
    /// @notice Only the bounty's awarder may call this.
    error NotAwarder(uint256 bountyId, address caller);
    /// @notice `fund` needs a Pending bounty.
    error BountyNotPending(uint256 bountyId, Status status);
    /// @notice `award` needs a Funded bounty.
    error BountyNotFunded(uint256 bountyId, Status status);
    /// @notice `reclaim` of a bounty already Awarded or Reclaimed.
    error BountyAlreadySettled(uint256 bountyId, Status status);
    /// @notice The contract's token balance grew by `received` instead of `expected` (fee-on-transfer tokens are refused).
    error FundingShortfall(uint256 expected, uint256 received);
    /// @notice The permit failed and the allowance (`allowance`) does not cover `pool`.
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
    /// @notice `claim`/`claimMany` to the zero address.
    error ClaimToZeroAddress();
    /// @notice `reclaim` of a Funded bounty at or before its award deadline.
    error ReclaimBeforeDeadline(uint256 bountyId, uint64 awardDeadline, uint256 timestamp);

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

    /// @notice The author took the bounty back (status Reclaimed); `amount` is 0 for a Pending bounty.
    event Reclaimed(uint256 indexed bountyId, address indexed author, uint256 amount);

    // ------------------------------------------------------------- functions

    /// @notice Creates a bounty in status Pending; the caller is its author.
    /// @return bountyId Sequential id, from 1.
    /// @dev Reverts ZeroToken, ZeroAwarder, ZeroPool, ZeroTestSetRoot, ZeroLeafCount, ThresholdAboveWhole,
    ///      AwardDeadlineNotAfterClose, AwardDeadlineInPast, the splits errors, RootBurned, RootBoundToLiveBounty.
    function createBounty(BountyParams calldata p) external returns (uint256 bountyId);

    /// @notice Pulls exactly `pool` of the bounty's token from its author (allowance needed); status Funded.
    /// @dev Reverts UnknownBounty, NotAuthor, BountyNotPending, FundingShortfall.
    function fund(uint256 bountyId) external;

    /// @notice `createBounty` then `fund` in one transaction.
    function createAndFund(BountyParams calldata p) external returns (uint256 bountyId);

    /// @notice `createAndFund` with an EIP-2612 permit of `p.pool` to this contract. A permit that fails
    ///         (for example because someone front-ran it) is ignored when the allowance already covers the pool.
    /// @dev Reverts PermitFailedAndAllowanceShort when the permit fails and the allowance is short.
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
    /// @dev Reverts ClaimToZeroAddress, NothingToClaim.
    function claim(uint256 bountyId, address to) external returns (uint256 amount);

    /// @notice `claim` for each of `bountyIds` (each must hold credit), all paid to `to`.
    /// @return total Sum paid, base units (tokens may differ between bounties).
    function claimMany(uint256[] calldata bountyIds, address to) external returns (uint256 total);

    /// @notice The author takes the bounty back: a Pending bounty at any time (cancel, nothing to return),
    ///         a Funded one only after `awardDeadline` (the pool returns). Status Reclaimed; the root is NOT burned.
    /// @dev Reverts UnknownBounty, NotAuthor, BountyAlreadySettled, ReclaimBeforeDeadline.
    function reclaim(uint256 bountyId) external;

    /// @notice The test-set root of a bounty (unchanged by the award); zero for an unknown id.
    function testSetRoots(uint256 bountyId) external view returns (bytes32);

    /// @notice Whether an award revealed this root (it can never back a new bounty).
    function rootBurned(bytes32 root) external view returns (bool);

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
