// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {Math} from "@openzeppelin/contracts/utils/math/Math.sol";

/// @title PayoutMath
/// @notice Per-place shares (`splitsBps`) and the SPEC 7.3 payout split.
/// @dev Shares are stored packed in one `uint128`: place i in bits [16*i, 16*i + 16).
///      Every valid share is > 0, so the number of places is the number of leading non-zero fields
///      and an all-zero word means "no splits" (an unknown bounty).
///      The evidence library (package bench-bounty/evidence) computes the same numbers (`payoutAmounts`); one shared table of cases
///      (`spec/vectors/payouts.json`) tests both.
library PayoutMath {
    /// @notice The whole pool, in basis points.
    uint256 internal constant WHOLE_BPS = 10_000;
    /// @notice Most paid places a bounty may have.
    uint256 internal constant MAX_PLACES = 8;

    /// @notice `splitsBps` must have 1..8 places; it has `length`.
    error SplitsLengthOutOfRange(uint256 length);
    /// @notice Place `place` (0-based) has a zero share.
    error ZeroSplit(uint256 place);
    /// @notice Place `place` (0-based) has a larger share than the place before it.
    error SplitsIncreasing(uint256 place);
    /// @notice The shares sum to `sumBps` instead of 10000 (a single share above 10000 is reported this way too).
    error SplitsSumNotWhole(uint256 sumBps);

    /// @notice Checks `splitsBps` (1..8 places, each > 0, non-increasing, sum 10000) and packs it.
    /// @dev Reverts SplitsLengthOutOfRange, ZeroSplit, SplitsIncreasing, SplitsSumNotWhole.
    function pack(uint16[] calldata splitsBps) internal pure returns (uint128 packed) {
        uint256 n = splitsBps.length;
        if (n == 0 || n > MAX_PLACES) revert SplitsLengthOutOfRange(n);
        uint256 sum;
        uint256 previous = type(uint16).max;
        for (uint256 i; i < n; ++i) {
            uint256 share = splitsBps[i];
            if (share == 0) revert ZeroSplit(i);
            if (share > previous) revert SplitsIncreasing(i);
            sum += share;
            previous = share;
            packed |= uint128(share << (16 * i));
        }
        if (sum != WHOLE_BPS) revert SplitsSumNotWhole(sum);
    }

    /// @notice Number of places in a packed splits word (0 for the zero word).
    function places(uint128 packed) internal pure returns (uint256 n) {
        while (n < MAX_PLACES && (packed >> (16 * n)) & 0xffff != 0) ++n;
    }

    /// @notice Expands a packed splits word into its shares, in place order.
    function unpack(uint128 packed) internal pure returns (uint16[] memory splitsBps) {
        uint256 n = places(packed);
        splitsBps = new uint16[](n);
        for (uint256 i; i < n; ++i) splitsBps[i] = uint16(packed >> (16 * i));
    }

    /// @notice SPEC 7.3 amounts for `k` winners out of a packed splits word.
    /// @dev `S = sum(shares[0..k-1])`, `amount_i = floor(pool * share_i / S)` (full 512-bit precision),
    ///      and the dust `pool - sum(amount_i)` goes to place 1; `k = 0` gives an empty array.
    ///      The caller guarantees `k <= places(packed)`. The amounts sum to exactly `pool` when k >= 1.
    function amounts(uint256 pool, uint128 packed, uint256 k) internal pure returns (uint256[] memory out) {
        out = new uint256[](k);
        if (k == 0) return out;
        uint256 s;
        for (uint256 i; i < k; ++i) s += uint16(packed >> (16 * i));
        uint256 paid;
        for (uint256 i; i < k; ++i) {
            uint256 amount = Math.mulDiv(pool, uint16(packed >> (16 * i)), s);
            out[i] = amount;
            paid += amount;
        }
        // paid <= pool because each term is floored; the dust is below k.
        out[0] += pool - paid;
    }
}
