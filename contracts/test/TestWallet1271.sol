// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {IERC1271} from "@openzeppelin/contracts/interfaces/IERC1271.sol";
import {ECDSA} from "@openzeppelin/contracts/utils/cryptography/ECDSA.sol";

/// @title TestWallet1271
/// @notice TEST ONLY: the smallest smart-contract wallet for ERC-1271: a signature is valid when its ECDSA
///         signer is the wallet's `owner`. It holds no ETH and sends no transactions, so it can only be paid
///         through a relayed `claimWithSig`.
contract TestWallet1271 is IERC1271 {
    /// @notice The EOA whose signatures this wallet accepts.
    address public immutable owner;

    constructor(address owner_) {
        owner = owner_;
    }

    /// @inheritdoc IERC1271
    function isValidSignature(bytes32 hash, bytes calldata signature) external view returns (bytes4) {
        (address signer, ECDSA.RecoverError err, ) = ECDSA.tryRecover(hash, signature);
        return
            err == ECDSA.RecoverError.NoError && signer == owner ? this.isValidSignature.selector : bytes4(0);
    }
}
