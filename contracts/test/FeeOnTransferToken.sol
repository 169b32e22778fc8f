// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {ERC20} from "@openzeppelin/contracts/token/ERC20/ERC20.sol";

/// @title FeeOnTransferToken
/// @notice TEST ONLY: an ERC-20 that burns 1% of every transfer, so a recipient receives less than sent.
///         BenchmarkBounty must refuse to be funded with it (`FundingShortfall`).
contract FeeOnTransferToken is ERC20 {
    /// @notice Fee in basis points taken from every transfer between two non-zero addresses.
    uint256 public constant FEE_BPS = 100;

    constructor() ERC20("Fee On Transfer", "FOT") {}

    /// @notice Open mint for tests.
    function mint(address to, uint256 amount) external {
        _mint(to, amount);
    }

    function _update(address from, address to, uint256 value) internal override {
        if (from == address(0) || to == address(0)) {
            super._update(from, to, value);
            return;
        }
        uint256 fee = (value * FEE_BPS) / 10_000;
        super._update(from, address(0), fee);
        super._update(from, to, value - fee);
    }
}
