// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {ERC20} from "@openzeppelin/contracts/token/ERC20/ERC20.sol";

/// @title ReentrantToken
/// @notice TEST ONLY: an ERC-20 whose transfers call back into a target (BenchmarkBounty) with calldata set by
///         the test (`claim`, `award`, `reclaim`, ...), as a malicious token would. The re-entry's outcome is
///         recorded (`lastReentrySucceeded`, `lastReentryResult`) and never bubbled up, so a test can check
///         that the outer call went through and the re-entry gained nothing.
contract ReentrantToken is ERC20 {
    /// @notice Where the hook calls; zero disarms the hook.
    address public reentryTarget;
    /// @notice Calldata of the re-entering call.
    bytes public reentryCalldata;
    /// @notice Whether the last re-entry succeeded.
    bool public lastReentrySucceeded;
    /// @notice Return or revert data of the last re-entry.
    bytes public lastReentryResult;
    /// @notice Number of re-entries attempted.
    uint256 public reentryCount;

    constructor() ERC20("Reentrant", "REENT") {}

    /// @notice Open mint for tests.
    function mint(address to, uint256 amount) external {
        _mint(to, amount);
    }

    /// @notice Arms the hook: the next transfers call `target_` with `data`; zero target disarms.
    function arm(address target_, bytes calldata data) external {
        reentryTarget = target_;
        reentryCalldata = data;
    }

    /// @notice Makes this token call `to` with `data` (as the attacking contract); bubbles a revert.
    function callTarget(address to, bytes calldata data) external returns (bytes memory result) {
        bool ok;
        // solhint-disable-next-line avoid-low-level-calls
        (ok, result) = to.call(data);
        if (!ok) {
            // solhint-disable-next-line no-inline-assembly
            assembly ("memory-safe") {
                revert(add(result, 0x20), mload(result))
            }
        }
    }

    function _update(address from, address to, uint256 value) internal override {
        super._update(from, to, value);
        address t = reentryTarget;
        if (t != address(0) && from != address(0) && to != address(0)) {
            reentryTarget = address(0); // one re-entry per arming, so the hook cannot recurse
            ++reentryCount;
            // The token itself re-enters: msg.sender of the inner call is this token.
            // solhint-disable-next-line avoid-low-level-calls
            (bool ok, bytes memory result) = t.call(reentryCalldata);
            lastReentrySucceeded = ok;
            lastReentryResult = result;
        }
    }
}
