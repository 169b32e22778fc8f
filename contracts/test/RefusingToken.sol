// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {ERC20} from "@openzeppelin/contracts/token/ERC20/ERC20.sol";

/// @title RefusingToken
/// @notice TEST ONLY: an ERC-20 whose `transfer` reverts once `refuse` is set, as a stranger's token can
///         (probe21 B-F10): a bounty funded in it is awarded, then every claim of its credit reverts.
///         `transferFrom` (the funding) always works.
contract RefusingToken is ERC20 {
    /// @notice Whether `transfer` reverts.
    bool public refusing;

    constructor() ERC20("Refusing", "JUNK") {}

    /// @notice 6 decimals, as USDC: the vector packs' pools fit it.
    function decimals() public pure override returns (uint8) {
        return 6;
    }

    /// @notice Open mint for tests.
    function mint(address to, uint256 amount) external {
        _mint(to, amount);
    }

    /// @notice Makes every later `transfer` revert (`true`) or work again (`false`).
    function refuse(bool on) external {
        refusing = on;
    }

    function transfer(address to, uint256 value) public override returns (bool) {
        // a reason string, as the probe's token: `claim reverted: no`
        // solhint-disable-next-line gas-custom-errors
        require(!refusing, "no");
        return super.transfer(to, value);
    }
}
