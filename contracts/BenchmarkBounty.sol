// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {IERC20Permit} from "@openzeppelin/contracts/token/ERC20/extensions/IERC20Permit.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";
import {ReentrancyGuardTransient} from "@openzeppelin/contracts/utils/ReentrancyGuardTransient.sol";
import {IBenchmarkBounty} from "./interfaces/IBenchmarkBounty.sol";
import {PayoutMath} from "./libraries/PayoutMath.sol";

/// @title BenchmarkBounty
/// @notice USDC prizes for AI-agent benchmarks (SPEC 1.1). No owner, no admin, no pause, no upgrade:
///         once a prize is locked only the rules of `IBenchmarkBounty` move it.
/// @dev Notes kept beside the code:
///      - Storage: a bounty takes six slots (see `BountyRecord`); the shares live packed in one `uint128`.
///      - Roots: `_rootBounty[root]` is the last bounty created on `root`. A new bounty may take a root only
///        when that bounty is terminal and not Awarded. An Awarded bounty therefore stays the root's last
///        bounty forever, so `rootBurned(root)` is exactly "the root's last bounty is Awarded": the award's
///        status write is what burns the root (no second storage write needed).
///      - Money: every function that moves tokens follows checks-effects-interactions under a transient
///        reentrancy lock, and uses SafeERC20. `fund` measures the balance delta, so fee-on-transfer tokens
///        are refused and the invariant `balanceOf(this) == sum(Funded pools) + sum(credits)` holds per token.
contract BenchmarkBounty is IBenchmarkBounty, ReentrancyGuardTransient {
    using SafeERC20 for IERC20;

    /// @dev Storage form of a bounty, six slots:
    ///      [author | closesAt | thresholdBps | status], [awarder | awardDeadline | leafCount],
    ///      [token], [splitsPacked], [pool], [testSetRoot].
    struct BountyRecord {
        address author;
        uint64 closesAt;
        uint16 thresholdBps;
        Status status;
        address awarder;
        uint64 awardDeadline;
        uint32 leafCount;
        address token;
        uint128 splitsPacked;
        uint256 pool;
        bytes32 testSetRoot;
    }

    uint256 private _bountyCount;
    mapping(uint256 bountyId => BountyRecord) private _bounties;
    mapping(uint256 bountyId => mapping(address account => uint256 amount)) private _credits;
    mapping(bytes32 root => uint256 bountyId) private _rootBounty;

    // ------------------------------------------------------------ lifecycle

    /// @inheritdoc IBenchmarkBounty
    function createBounty(BountyParams calldata p) external nonReentrant returns (uint256 bountyId) {
        bountyId = _create(p);
    }

    /// @inheritdoc IBenchmarkBounty
    function fund(uint256 bountyId) external nonReentrant {
        _fund(bountyId);
    }

    /// @inheritdoc IBenchmarkBounty
    function createAndFund(BountyParams calldata p) external nonReentrant returns (uint256 bountyId) {
        bountyId = _create(p);
        _fund(bountyId);
    }

    /// @inheritdoc IBenchmarkBounty
    function createAndFundWithPermit(
        BountyParams calldata p,
        uint256 deadline,
        uint8 v,
        bytes32 r,
        bytes32 s
    ) external nonReentrant returns (uint256 bountyId) {
        bountyId = _create(p);
        // A permit can be front-run (its signature is public once in the mempool): the nonce is then used
        // and this call would fail. Ignore the failure when the allowance it granted is already there.
        try IERC20Permit(p.token).permit(msg.sender, address(this), p.pool, deadline, v, r, s) {} catch {
            uint256 allowance = IERC20(p.token).allowance(msg.sender, address(this));
            if (allowance < p.pool) revert PermitFailedAndAllowanceShort(allowance, p.pool);
        }
        _fund(bountyId);
    }

    /// @inheritdoc IBenchmarkBounty
    function award(
        uint256 bountyId,
        address[] calldata winners,
        bytes32 rankingDigest
    ) external nonReentrant {
        BountyRecord storage b = _bounties[bountyId];
        _checkAwardable(b, bountyId, winners.length);
        uint256 pool = b.pool;
        uint256[] memory amounts = PayoutMath.amounts(pool, b.splitsPacked, winners.length);
        uint256 authorRemainder = pool - _creditWinners(bountyId, winners, amounts);
        if (authorRemainder != 0) _credits[bountyId][b.author] += authorRemainder;
        // Burns the root too (see the contract notes).
        b.status = Status.Awarded;
        emit Awarded(bountyId, b.testSetRoot, winners, amounts, authorRemainder, rankingDigest);
    }

    /// @inheritdoc IBenchmarkBounty
    function claim(uint256 bountyId, address to) external nonReentrant returns (uint256 amount) {
        if (to == address(0)) revert ClaimToZeroAddress();
        amount = _claim(bountyId, to);
    }

    /// @inheritdoc IBenchmarkBounty
    function claimMany(
        uint256[] calldata bountyIds,
        address to
    ) external nonReentrant returns (uint256 total) {
        if (to == address(0)) revert ClaimToZeroAddress();
        for (uint256 i; i < bountyIds.length; ++i) total += _claim(bountyIds[i], to);
    }

    /// @inheritdoc IBenchmarkBounty
    function reclaim(uint256 bountyId) external nonReentrant {
        BountyRecord storage b = _bounties[bountyId];
        Status status = b.status;
        if (status == Status.None) revert UnknownBounty(bountyId);
        address author = b.author;
        if (msg.sender != author) revert NotAuthor(bountyId, msg.sender);
        uint256 amount;
        if (status == Status.Funded) {
            if (block.timestamp <= b.awardDeadline) {
                revert ReclaimBeforeDeadline(bountyId, b.awardDeadline, block.timestamp);
            }
            amount = b.pool;
        } else if (status != Status.Pending) {
            revert BountyAlreadySettled(bountyId, status);
        }
        // The root is NOT burned: an unawarded prize never reveals its test set.
        b.status = Status.Reclaimed;
        emit Reclaimed(bountyId, author, amount);
        if (amount != 0) IERC20(b.token).safeTransfer(author, amount);
    }

    // ---------------------------------------------------------------- views

    /// @inheritdoc IBenchmarkBounty
    function testSetRoots(uint256 bountyId) external view returns (bytes32) {
        return _bounties[bountyId].testSetRoot;
    }

    /// @inheritdoc IBenchmarkBounty
    function rootBurned(bytes32 root) public view returns (bool) {
        uint256 last = _rootBounty[root];
        return last != 0 && _bounties[last].status == Status.Awarded;
    }

    /// @inheritdoc IBenchmarkBounty
    function leafCountOf(uint256 bountyId) external view returns (uint32) {
        return _bounties[bountyId].leafCount;
    }

    /// @inheritdoc IBenchmarkBounty
    function splitsOf(uint256 bountyId) external view returns (uint16[] memory) {
        return PayoutMath.unpack(_bounties[bountyId].splitsPacked);
    }

    /// @inheritdoc IBenchmarkBounty
    function creditOf(uint256 bountyId, address account) external view returns (uint256) {
        return _credits[bountyId][account];
    }

    /// @inheritdoc IBenchmarkBounty
    function statusOf(uint256 bountyId) external view returns (Status) {
        return _bounties[bountyId].status;
    }

    /// @inheritdoc IBenchmarkBounty
    function getBounty(uint256 bountyId) external view returns (Bounty memory bounty) {
        BountyRecord storage b = _bounties[bountyId];
        bounty = Bounty({
            author: b.author,
            awarder: b.awarder,
            token: b.token,
            pool: b.pool,
            testSetRoot: b.testSetRoot,
            leafCount: b.leafCount,
            closesAt: b.closesAt,
            awardDeadline: b.awardDeadline,
            thresholdBps: b.thresholdBps,
            status: b.status,
            splitsBps: PayoutMath.unpack(b.splitsPacked)
        });
    }

    /// @inheritdoc IBenchmarkBounty
    function bountyCount() external view returns (uint256) {
        return _bountyCount;
    }

    /// @inheritdoc IBenchmarkBounty
    function payoutAmounts(
        uint256 pool,
        uint16[] calldata splitsBps,
        uint256 k
    ) external pure returns (uint256[] memory) {
        uint128 packed = PayoutMath.pack(splitsBps);
        if (k > splitsBps.length) revert TooManyWinners(k, splitsBps.length);
        return PayoutMath.amounts(pool, packed, k);
    }

    // ------------------------------------------------------------- internal

    /// @dev Validates `p`, binds its root and stores the bounty as Pending.
    function _create(BountyParams calldata p) private returns (uint256 bountyId) {
        if (p.token == address(0)) revert ZeroToken();
        if (p.awarder == address(0)) revert ZeroAwarder();
        if (p.pool == 0) revert ZeroPool();
        if (p.testSetRoot == bytes32(0)) revert ZeroTestSetRoot();
        if (p.leafCount == 0) revert ZeroLeafCount();
        if (p.thresholdBps > PayoutMath.WHOLE_BPS) revert ThresholdAboveWhole(p.thresholdBps);
        if (p.awardDeadline <= p.closesAt) revert AwardDeadlineNotAfterClose(p.closesAt, p.awardDeadline);
        if (p.awardDeadline <= block.timestamp) revert AwardDeadlineInPast(p.awardDeadline, block.timestamp);
        uint128 splitsPacked = PayoutMath.pack(p.splitsBps);

        uint256 last = _rootBounty[p.testSetRoot];
        if (last != 0) {
            Status lastStatus = _bounties[last].status;
            if (lastStatus == Status.Awarded) revert RootBurned(p.testSetRoot);
            if (lastStatus != Status.Reclaimed) revert RootBoundToLiveBounty(p.testSetRoot, last);
        }

        bountyId = ++_bountyCount;
        _rootBounty[p.testSetRoot] = bountyId;
        _bounties[bountyId] = BountyRecord({
            author: msg.sender,
            closesAt: p.closesAt,
            thresholdBps: p.thresholdBps,
            status: Status.Pending,
            awarder: p.awarder,
            awardDeadline: p.awardDeadline,
            leafCount: p.leafCount,
            token: p.token,
            splitsPacked: splitsPacked,
            pool: p.pool,
            testSetRoot: p.testSetRoot
        });
        _emitCreated(bountyId, p);
    }

    /// @dev Kept apart from `_create` to stay within the stack limit.
    function _emitCreated(uint256 bountyId, BountyParams calldata p) private {
        emit BountyCreated(
            bountyId,
            msg.sender,
            p.token,
            p.awarder,
            p.testSetRoot,
            p.leafCount,
            p.pool,
            p.closesAt,
            p.awardDeadline,
            p.thresholdBps,
            p.splitsBps
        );
    }

    /// @dev Pulls the pool from the author and checks the contract received all of it.
    function _fund(uint256 bountyId) private {
        BountyRecord storage b = _bounties[bountyId];
        Status status = b.status;
        if (status == Status.None) revert UnknownBounty(bountyId);
        if (msg.sender != b.author) revert NotAuthor(bountyId, msg.sender);
        if (status != Status.Pending) revert BountyNotPending(bountyId, status);
        uint256 pool = b.pool;
        IERC20 token = IERC20(b.token);

        b.status = Status.Funded;
        emit BountyFunded(bountyId, msg.sender, pool);
        uint256 before = token.balanceOf(address(this));
        token.safeTransferFrom(msg.sender, address(this), pool);
        uint256 received = token.balanceOf(address(this)) - before;
        if (received != pool) revert FundingShortfall(pool, received);
    }

    /// @dev The award's checks: known bounty, awarder, Funded, inside the window, not too many winners.
    function _checkAwardable(BountyRecord storage b, uint256 bountyId, uint256 k) private view {
        Status status = b.status;
        if (status == Status.None) revert UnknownBounty(bountyId);
        if (msg.sender != b.awarder) revert NotAwarder(bountyId, msg.sender);
        if (status != Status.Funded) revert BountyNotFunded(bountyId, status);
        if (block.timestamp < b.closesAt) revert AwardBeforeClose(b.closesAt, block.timestamp);
        if (block.timestamp > b.awardDeadline) revert AwardAfterDeadline(b.awardDeadline, block.timestamp);
        uint256 nPlaces = PayoutMath.places(b.splitsPacked);
        if (k > nPlaces) revert TooManyWinners(k, nPlaces);
    }

    /// @dev Credits `amounts[i]` to `winners[i]`; the same address may hold two places (one owner, two
    ///      agents), its credits add. Returns the total credited.
    function _creditWinners(
        uint256 bountyId,
        address[] calldata winners,
        uint256[] memory amounts
    ) private returns (uint256 credited) {
        mapping(address => uint256) storage credits = _credits[bountyId];
        for (uint256 i; i < winners.length; ++i) {
            address winner = winners[i];
            if (winner == address(0)) revert ZeroAddressWinner(i);
            credits[winner] += amounts[i];
            credited += amounts[i];
        }
    }

    /// @dev Zeroes the caller's credit in `bountyId`, then pays it to `to`.
    function _claim(uint256 bountyId, address to) private returns (uint256 amount) {
        amount = _credits[bountyId][msg.sender];
        if (amount == 0) revert NothingToClaim(bountyId, msg.sender);
        _credits[bountyId][msg.sender] = 0;
        emit Claimed(bountyId, msg.sender, to, amount);
        IERC20(_bounties[bountyId].token).safeTransfer(to, amount);
    }
}
