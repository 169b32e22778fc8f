// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

/// @title IAnchorRegistry
/// @notice Permissionless, append-only record that a 32-byte digest existed at a block (SPEC 1.2).
/// @dev The first anchoring of a digest is kept forever. A kind says what the digest is; only the four
///      protocol kinds are accepted (each is `keccak256` of its name, see the `KIND_*` getters).
interface IAnchorRegistry {
    /// @notice The zero digest cannot be anchored.
    error ZeroDigest();
    /// @notice `digest` was already anchored by `anchorer` at block `blockNumber`.
    error AlreadyAnchored(bytes32 digest, address anchorer, uint64 blockNumber);
    /// @notice `kind` is not one of the four protocol kinds.
    error UnknownKind(bytes32 kind);

    /// @notice `anchorer` anchored `digest` as `kind` in this block.
    event Anchored(bytes32 indexed digest, bytes32 indexed kind, address indexed anchorer);

    /// @notice Records `digest` with `kind` for the caller at the current block.
    /// @dev Reverts ZeroDigest, UnknownKind, AlreadyAnchored.
    function anchor(bytes32 digest, bytes32 kind) external;

    /// @notice `anchor` for each digest, all of one kind; any failure reverts the whole call.
    function anchorMany(bytes32[] calldata digests, bytes32 kind) external;

    /// @notice The first anchoring of `digest`; all zero when it was never anchored.
    function anchorOf(
        bytes32 digest
    ) external view returns (address anchorer, uint64 blockNumber, uint64 timestamp, bytes32 kind);

    /// @notice keccak256("bench-bounty.anchor.commitment"): a test-set commitment (SPEC 3).
    function KIND_COMMITMENT() external view returns (bytes32);

    /// @notice keccak256("bench-bounty.anchor.receipt"): a run receipt (SPEC 4).
    function KIND_RECEIPT() external view returns (bytes32);

    /// @notice keccak256("bench-bounty.anchor.pack"): an award evidence pack (SPEC 8).
    function KIND_PACK() external view returns (bytes32);

    /// @notice keccak256("bench-bounty.anchor.compute-receipt"): a compute receipt.
    function KIND_COMPUTE_RECEIPT() external view returns (bytes32);
}
