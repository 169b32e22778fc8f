// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {IERC20Permit} from "@openzeppelin/contracts/token/ERC20/extensions/IERC20Permit.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";
import {EIP712} from "@openzeppelin/contracts/utils/cryptography/EIP712.sol";
import {SignatureChecker} from "@openzeppelin/contracts/utils/cryptography/SignatureChecker.sol";
import {Nonces} from "@openzeppelin/contracts/utils/Nonces.sol";
import {ReentrancyGuardTransient} from "@openzeppelin/contracts/utils/ReentrancyGuardTransient.sol";
import {IBenchmarkBounty} from "./interfaces/IBenchmarkBounty.sol";
import {PayoutMath} from "./libraries/PayoutMath.sol";

/// @title BenchmarkBounty
/// @notice USDC prizes for AI-agent benchmarks (SPEC 1.1, v1.1). No owner, no admin, no pause, no upgrade:
///         once a prize is locked only the rules of `IBenchmarkBounty` move it.
/// @dev Notes kept beside the code:
///      - Storage: a bounty takes six slots (see `BountyRecord`), laid out so that `award` reads five and
///        `claim` one (see `_credits`). docs/gas.md accounts for every slot and log byte.
///      - Roots (v1.1: per author): `_rootBounty[author][root]` is the last bounty `author` created on `root`.
///        `author` may take the root again only when that bounty is Reclaimed. An Awarded bounty therefore
///        stays the last one forever, so `rootBurned(author, root)` is exactly "author's last bounty on root is
///        Awarded": the award's status write is what burns the root (no second storage write needed).
///      - Credits: a credit word holds `token << 96 | amount` when the bounty's pool fits in 96 bits (every
///        real USDC prize: 2^96 base units is 7.9e22 USDC), so a claim reads one slot; credits of a larger pool
///        live unpacked in `_wideCredits`. Either way `creditOf` is the amount.
///      - Money: every function that moves tokens follows checks-effects-interactions under a transient
///        reentrancy lock, and uses SafeERC20. `fund` measures the balance delta, so fee-on-transfer tokens
///        are refused and `balanceOf(this) >= sum(Funded pools) + sum(credits)` holds per token, with
///        equality unless someone sends tokens to the contract directly.
contract BenchmarkBounty is IBenchmarkBounty, EIP712, Nonces, ReentrancyGuardTransient {
    using SafeERC20 for IERC20;

    /// @inheritdoc IBenchmarkBounty
    bytes32 public constant CLAIM_TYPEHASH =
        keccak256("Claim(uint256 bountyId,address account,address to,uint256 nonce,uint256 deadline)");

    /// @dev Largest amount a packed credit word holds (its low 96 bits).
    uint256 private constant PACKED_AMOUNT_MAX = type(uint96).max;

    /// @dev Storage form of a bounty, six slots:
    ///      [awarder | closesAt | thresholdBps | status]  read by fund, award, reclaim
    ///      [token | awardDeadline | leafCount]           read by fund, award (token goes into credit words), reclaim
    ///      [author], [splitsPacked], [pool], [testSetRoot].
    struct BountyRecord {
        address awarder;
        uint64 closesAt;
        uint16 thresholdBps;
        Status status;
        address token;
        uint64 awardDeadline;
        uint32 leafCount;
        address author;
        uint128 splitsPacked;
        uint256 pool;
        bytes32 testSetRoot;
    }

    uint256 private _bountyCount;
    mapping(uint256 bountyId => BountyRecord) private _bounties;
    /// @dev `token << 96 | amount` (pool <= PACKED_AMOUNT_MAX), else zero.
    mapping(uint256 bountyId => mapping(address account => uint256 word)) private _credits;
    /// @dev Plain amounts of bounties whose pool exceeds PACKED_AMOUNT_MAX.
    mapping(uint256 bountyId => mapping(address account => uint256 amount)) private _wideCredits;
    mapping(address author => mapping(bytes32 root => uint256 bountyId)) private _rootBounty;

    constructor() EIP712("BenchmarkBounty", "1") {}

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
        try IERC20Permit(p.token).permit(msg.sender, address(this), p.pool, deadline, v, r, s) {} catch (
            bytes memory reason
        ) {
            uint256 allowance = IERC20(p.token).allowance(msg.sender, address(this));
            if (allowance < p.pool) {
                if (reason.length == 0) revert PermitFailedAndAllowanceShort(allowance, p.pool);
                // The token's own reason (a paused USDC says "Pausable: paused").
                // solhint-disable-next-line no-inline-assembly
                assembly ("memory-safe") {
                    revert(add(reason, 0x20), mload(reason))
                }
            }
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
        uint256 tag = _creditTag(b, pool);
        uint256 authorRemainder = pool - _creditWinners(bountyId, winners, amounts, tag);
        if (authorRemainder != 0) _credit(bountyId, b.author, authorRemainder, tag);
        // Burns the root for this author too (see the contract notes).
        b.status = Status.Awarded;
        emit Awarded(bountyId, b.testSetRoot, winners, amounts, authorRemainder, rankingDigest);
    }

    /// @inheritdoc IBenchmarkBounty
    function claim(uint256 bountyId, address to) external nonReentrant returns (uint256 amount) {
        _checkRecipient(to);
        amount = _claim(bountyId, msg.sender, to);
    }

    /// @inheritdoc IBenchmarkBounty
    function claimMany(
        uint256[] calldata bountyIds,
        address to
    ) external nonReentrant returns (uint256 total) {
        _checkRecipient(to);
        for (uint256 i; i < bountyIds.length; ++i) total += _claim(bountyIds[i], msg.sender, to);
    }

    /// @inheritdoc IBenchmarkBounty
    function claimWithSig(
        uint256 bountyId,
        address account,
        address to,
        uint256 deadline,
        bytes calldata signature
    ) external nonReentrant returns (uint256 amount) {
        if (block.timestamp > deadline) revert ClaimSignatureExpired(deadline, block.timestamp);
        _checkRecipient(to);
        bytes32 digest = _hashTypedDataV4(
            keccak256(abi.encode(CLAIM_TYPEHASH, bountyId, account, to, _useNonce(account), deadline))
        );
        if (!SignatureChecker.isValidSignatureNow(account, digest, signature)) {
            revert InvalidClaimSignature(account);
        }
        amount = _claim(bountyId, account, to);
    }

    /// @inheritdoc IBenchmarkBounty
    function reclaim(uint256 bountyId, address to) external nonReentrant {
        _checkRecipient(to);
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
        emit Reclaimed(bountyId, author, to, amount);
        if (amount != 0) IERC20(b.token).safeTransfer(to, amount);
    }

    // ---------------------------------------------------------------- views

    /// @inheritdoc IBenchmarkBounty
    function testSetRoots(uint256 bountyId) external view returns (bytes32) {
        return _bounties[bountyId].testSetRoot;
    }

    /// @inheritdoc IBenchmarkBounty
    function rootBurned(address author, bytes32 root) external view returns (bool) {
        uint256 last = _rootBounty[author][root];
        return last != 0 && _bounties[last].status == Status.Awarded;
    }

    /// @inheritdoc IBenchmarkBounty
    function nonces(address account) public view override(IBenchmarkBounty, Nonces) returns (uint256) {
        return super.nonces(account);
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
        uint256 word = _credits[bountyId][account];
        return word != 0 ? word & PACKED_AMOUNT_MAX : _wideCredits[bountyId][account];
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

    /// @dev Validates `p`, binds its root to the caller and stores the bounty as Pending.
    function _create(BountyParams calldata p) private returns (uint256 bountyId) {
        _checkParams(p);
        uint128 splitsPacked = PayoutMath.pack(p.splitsBps);

        mapping(bytes32 => uint256) storage roots = _rootBounty[msg.sender];
        uint256 last = roots[p.testSetRoot];
        if (last != 0) {
            Status lastStatus = _bounties[last].status;
            if (lastStatus == Status.Awarded) revert RootBurned(msg.sender, p.testSetRoot);
            if (lastStatus != Status.Reclaimed) revert RootBoundToLiveBounty(msg.sender, p.testSetRoot, last);
        }

        bountyId = ++_bountyCount;
        roots[p.testSetRoot] = bountyId;
        _bounties[bountyId] = BountyRecord({
            awarder: p.awarder,
            closesAt: p.closesAt,
            thresholdBps: p.thresholdBps,
            status: Status.Pending,
            token: p.token,
            awardDeadline: p.awardDeadline,
            leafCount: p.leafCount,
            author: msg.sender,
            splitsPacked: splitsPacked,
            pool: p.pool,
            testSetRoot: p.testSetRoot
        });
        _emitCreated(bountyId, p);
    }

    /// @dev The creation rules on single fields and times (the splits are PayoutMath's, the root's are `_create`'s).
    ///      `closesAt > now` and `awardDeadline > closesAt` together keep the award deadline in the future.
    function _checkParams(BountyParams calldata p) private view {
        if (p.token == address(0)) revert ZeroToken();
        if (p.token.code.length == 0) revert TokenWithoutCode(p.token);
        if (p.awarder == address(0)) revert ZeroAwarder();
        if (p.pool == 0) revert ZeroPool();
        if (p.testSetRoot == bytes32(0)) revert ZeroTestSetRoot();
        if (p.leafCount == 0) revert ZeroLeafCount();
        if (p.thresholdBps > PayoutMath.WHOLE_BPS) revert ThresholdAboveWhole(p.thresholdBps);
        if (p.closesAt <= block.timestamp) revert ClosesAtNotInFuture(p.closesAt, block.timestamp);
        if (p.awardDeadline <= p.closesAt) revert AwardDeadlineNotAfterClose(p.closesAt, p.awardDeadline);
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
        if (block.timestamp >= b.closesAt) revert FundAfterClose(bountyId, b.closesAt, block.timestamp);
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
        uint256[] memory amounts,
        uint256 tag
    ) private returns (uint256 credited) {
        for (uint256 i; i < winners.length; ++i) {
            address winner = winners[i];
            if (winner == address(0)) revert ZeroAddressWinner(i);
            _credit(bountyId, winner, amounts[i], tag);
            credited += amounts[i];
        }
    }

    /// @dev The high bits of this bounty's credit words: `token << 96`, or 0 when its pool is too large to
    ///      pack (its credits then go to `_wideCredits`).
    function _creditTag(BountyRecord storage b, uint256 pool) private view returns (uint256) {
        return pool <= PACKED_AMOUNT_MAX ? uint256(uint160(b.token)) << 96 : 0;
    }

    /// @dev Adds `amount` to `account`'s credit. With a tag the sum stays below 2^96 (credits never exceed
    ///      the pool), so it never carries into the token bits. A zero amount (a tiny pool split over several
    ///      places) credits nothing, so claiming it reverts NothingToClaim as for any empty credit.
    function _credit(uint256 bountyId, address account, uint256 amount, uint256 tag) private {
        if (amount == 0) return;
        if (tag != 0) {
            mapping(address => uint256) storage credits = _credits[bountyId];
            credits[account] = (credits[account] | tag) + amount;
        } else {
            _wideCredits[bountyId][account] += amount;
        }
    }

    /// @dev Zeroes `account`'s credit in `bountyId`, then pays it to `to`.
    function _claim(uint256 bountyId, address account, address to) private returns (uint256 amount) {
        uint256 word = _credits[bountyId][account];
        address token;
        if (word != 0) {
            delete _credits[bountyId][account];
            amount = word & PACKED_AMOUNT_MAX;
            token = address(uint160(word >> 96));
        } else {
            amount = _wideCredits[bountyId][account];
            if (amount == 0) revert NothingToClaim(bountyId, account);
            delete _wideCredits[bountyId][account];
            token = _bounties[bountyId].token;
        }
        emit Claimed(bountyId, account, to, amount);
        IERC20(token).safeTransfer(to, amount);
    }

    /// @dev A payment may go anywhere but the zero address and this contract (the tokens would be lost).
    function _checkRecipient(address to) private view {
        if (to == address(0) || to == address(this)) revert InvalidRecipient(to);
    }
}
