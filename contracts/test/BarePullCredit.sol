// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";

/// @title BarePullCredit
/// @notice TEST ONLY, gas baseline of `scripts/bench-gas.ts` (issue 19): the least a pull-payment prize can do.
///         A credit mapping per (bountyId, account); `award` writes the given credits; `claim` zeroes the
///         caller's credit and `transfer`s it. No checks, no events, no reentrancy lock, no SafeERC20, the
///         token fixed at deployment: everything BenchmarkBounty pays for beyond this is accounted in docs/gas.md.
contract BarePullCredit {
    /// @notice The token paid out (TestUSDC in the benchmark).
    IERC20 public immutable token;
    /// @notice Unclaimed credit per bounty and account, base units.
    mapping(uint256 bountyId => mapping(address account => uint256 amount)) public credit;

    constructor(IERC20 token_) {
        token = token_;
    }

    /// @notice Adds `amounts[i]` to `winners[i]`'s credit in `bountyId`.
    function award(uint256 bountyId, address[] calldata winners, uint256[] calldata amounts) external {
        for (uint256 i; i < winners.length; ++i) credit[bountyId][winners[i]] += amounts[i];
    }

    /// @notice Pays the caller's whole credit in `bountyId` to `to`.
    function claim(uint256 bountyId, address to) external {
        uint256 amount = credit[bountyId][msg.sender];
        credit[bountyId][msg.sender] = 0;
        token.transfer(to, amount);
    }
}
