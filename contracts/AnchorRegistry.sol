// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {IAnchorRegistry} from "./interfaces/IAnchorRegistry.sol";

/// @title AnchorRegistry
/// @notice Permissionless, append-only record that a 32-byte digest existed at a block (SPEC 1.2).
/// @dev One storage slot per digest: [anchorer (160) | blockNumber (40) | timestamp (40) | kind code (8)].
///      40 bits hold block numbers and unix seconds for tens of thousands of years. The kind is stored as
///      a code 1..4 of the four protocol kinds, which is why an unknown kind is refused.
contract AnchorRegistry is IAnchorRegistry {
    /// @inheritdoc IAnchorRegistry
    bytes32 public constant KIND_COMMITMENT = keccak256("bench-bounty.anchor.commitment");
    /// @inheritdoc IAnchorRegistry
    bytes32 public constant KIND_RECEIPT = keccak256("bench-bounty.anchor.receipt");
    /// @inheritdoc IAnchorRegistry
    bytes32 public constant KIND_PACK = keccak256("bench-bounty.anchor.pack");
    /// @inheritdoc IAnchorRegistry
    bytes32 public constant KIND_COMPUTE_RECEIPT = keccak256("bench-bounty.anchor.compute-receipt");

    mapping(bytes32 digest => uint256 record) private _anchors;

    /// @inheritdoc IAnchorRegistry
    function anchor(bytes32 digest, bytes32 kind) external {
        _anchor(digest, kind, _kindCode(kind));
    }

    /// @inheritdoc IAnchorRegistry
    function anchorMany(bytes32[] calldata digests, bytes32 kind) external {
        uint256 code = _kindCode(kind);
        for (uint256 i; i < digests.length; ++i) _anchor(digests[i], kind, code);
    }

    /// @inheritdoc IAnchorRegistry
    function anchorOf(
        bytes32 digest
    ) external view returns (address anchorer, uint64 blockNumber, uint64 timestamp, bytes32 kind) {
        uint256 record = _anchors[digest];
        if (record == 0) return (address(0), 0, 0, bytes32(0));
        anchorer = address(uint160(record >> 96));
        blockNumber = uint64((record >> 56) & 0xff_ffff_ffff);
        timestamp = uint64((record >> 16) & 0xff_ffff_ffff);
        kind = _kindOf(record & 0xff);
    }

    function _anchor(bytes32 digest, bytes32 kind, uint256 code) private {
        if (digest == bytes32(0)) revert ZeroDigest();
        uint256 existing = _anchors[digest];
        if (existing != 0) {
            revert AlreadyAnchored(
                digest,
                address(uint160(existing >> 96)),
                uint64((existing >> 56) & 0xff_ffff_ffff)
            );
        }
        _anchors[digest] =
            (uint256(uint160(msg.sender)) << 96) |
            (uint256(uint40(block.number)) << 56) |
            (uint256(uint40(block.timestamp)) << 16) |
            code;
        emit Anchored(digest, kind, msg.sender);
    }

    function _kindCode(bytes32 kind) private pure returns (uint256) {
        if (kind == KIND_COMMITMENT) return 1;
        if (kind == KIND_RECEIPT) return 2;
        if (kind == KIND_PACK) return 3;
        if (kind == KIND_COMPUTE_RECEIPT) return 4;
        revert UnknownKind(kind);
    }

    function _kindOf(uint256 code) private pure returns (bytes32) {
        if (code == 1) return KIND_COMMITMENT;
        if (code == 2) return KIND_RECEIPT;
        if (code == 3) return KIND_PACK;
        return KIND_COMPUTE_RECEIPT;
    }
}
