// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

/* solhint-disable gas-custom-errors, custom-errors */

import {SignatureChecker} from "@openzeppelin/contracts/utils/cryptography/SignatureChecker.sol";

/// @title TestUSDC
/// @notice Test double of Circle's FiatToken (USDC v2.2 on Base) for the local Base profile: the surface a
///         user meets (name "USD Coin", symbol "USDC", 6 decimals, EIP-2612 `permit` with EIP-712 version
///         "2", `nonces`, `DOMAIN_SEPARATOR`, pause, blacklist) and FiatToken's revert strings. The rules of
///         FiatTokenV2_2 it mirrors (read from circlefin/stablecoin-evm, written anew here):
///         - paused: transfer, transferFrom, approve, permit and mint revert "Pausable: paused";
///         - transfer: neither `msg.sender` nor `to` may be blacklisted;
///         - transferFrom: none of `msg.sender`, `from`, `to` may be blacklisted;
///         - approve and permit: NOT blacklist-checked in v2.2 (a blacklisted owner or spender may approve and
///           be approved; the transfer that would use it is what fails);
///         - permit: expired unless `deadline == type(uint256).max` or `deadline >= block.timestamp`;
///         - the blacklist flag is the high bit of the balance word; a blacklisted balance is kept, not burned.
///         TEST ONLY: `mint`, `blacklist`, `unBlacklist` and `updatePauser` are open to anyone; `pause` and
///         `unpause` need the pauser, as in FiatToken.
/// @dev Made to be placed at the Base USDC address with `hardhat_setCode`: there is no constructor and no
///      immutable, names are constants, and the EIP-712 domain is built at call time from `block.chainid`
///      and `address(this)`. As in FiatToken v2.2, the blacklist flag is the high bit of the balance slot.
contract TestUSDC {
    /// @dev High bit of a balance slot: the account is blacklisted.
    uint256 private constant BLACKLISTED = 1 << 255;
    /// @notice EIP-2612 permit struct type hash.
    bytes32 public constant PERMIT_TYPEHASH =
        keccak256("Permit(address owner,address spender,uint256 value,uint256 nonce,uint256 deadline)");
    bytes32 private constant EIP712_DOMAIN_TYPEHASH =
        keccak256("EIP712Domain(string name,string version,uint256 chainId,address verifyingContract)");

    mapping(address account => uint256 balanceAndBlacklistState) private _balanceAndBlacklistStates;
    mapping(address owner => mapping(address spender => uint256 amount)) private _allowed;
    mapping(address owner => uint256 nonce) private _permitNonces;
    uint256 private _totalSupply;
    /// @notice The only address allowed to pause and unpause (zero until `updatePauser`).
    address public pauser;
    /// @notice Whether the token is paused.
    bool public paused;

    /// @notice ERC-20 transfer.
    event Transfer(address indexed from, address indexed to, uint256 value);
    /// @notice ERC-20 approval.
    event Approval(address indexed owner, address indexed spender, uint256 value);
    /// @notice FiatToken mint event (emitted alongside Transfer from the zero address).
    event Mint(address indexed minter, address indexed to, uint256 amount);
    /// @notice `account` was blacklisted.
    event Blacklisted(address indexed account);
    /// @notice `account` was removed from the blacklist.
    event UnBlacklisted(address indexed account);
    /// @notice The token was paused.
    event Pause();
    /// @notice The token was unpaused.
    event Unpause();
    /// @notice The pauser changed.
    event PauserChanged(address indexed newAddress);

    modifier whenNotPaused() {
        require(!paused, "Pausable: paused");
        _;
    }

    modifier onlyPauser() {
        require(msg.sender == pauser, "Pausable: caller is not the pauser");
        _;
    }

    modifier notBlacklisted(address account) {
        require(!isBlacklisted(account), "Blacklistable: account is blacklisted");
        _;
    }

    /// @notice "USD Coin".
    function name() external pure returns (string memory) {
        return "USD Coin";
    }

    /// @notice "USDC".
    function symbol() external pure returns (string memory) {
        return "USDC";
    }

    /// @notice 6: amounts are in micro-dollars.
    function decimals() external pure returns (uint8) {
        return 6;
    }

    /// @notice "USD".
    function currency() external pure returns (string memory) {
        return "USD";
    }

    /// @notice EIP-712 domain version, "2" as on Base.
    function version() external pure returns (string memory) {
        return "2";
    }

    /// @notice EIP-712 domain separator for this chain and this address.
    function DOMAIN_SEPARATOR() public view returns (bytes32) {
        return
            keccak256(
                abi.encode(
                    EIP712_DOMAIN_TYPEHASH,
                    keccak256("USD Coin"),
                    keccak256("2"),
                    block.chainid,
                    address(this)
                )
            );
    }

    /// @notice Total minted, base units.
    function totalSupply() external view returns (uint256) {
        return _totalSupply;
    }

    /// @notice Balance of `account`, base units.
    function balanceOf(address account) public view returns (uint256) {
        return _balanceAndBlacklistStates[account] & ~BLACKLISTED;
    }

    /// @notice Allowance of `spender` over `owner`'s tokens.
    function allowance(address owner, address spender) external view returns (uint256) {
        return _allowed[owner][spender];
    }

    /// @notice Next EIP-2612 nonce of `owner`.
    function nonces(address owner) external view returns (uint256) {
        return _permitNonces[owner];
    }

    /// @notice Whether `account` is blacklisted.
    function isBlacklisted(address account) public view returns (bool) {
        return _balanceAndBlacklistStates[account] & BLACKLISTED != 0;
    }

    /// @notice ERC-20 approve (v2.2: paused-checked only, no blacklist check).
    function approve(address spender, uint256 value) external whenNotPaused returns (bool) {
        _approve(msg.sender, spender, value);
        return true;
    }

    /// @notice ERC-20 transfer.
    function transfer(
        address to,
        uint256 value
    ) external whenNotPaused notBlacklisted(msg.sender) notBlacklisted(to) returns (bool) {
        _transfer(msg.sender, to, value);
        return true;
    }

    /// @notice ERC-20 transferFrom (the allowance is always decreased, as in FiatToken).
    function transferFrom(
        address from,
        address to,
        uint256 value
    )
        external
        whenNotPaused
        notBlacklisted(msg.sender)
        notBlacklisted(from)
        notBlacklisted(to)
        returns (bool)
    {
        uint256 allowed = _allowed[from][msg.sender];
        require(value <= allowed, "ERC20: transfer amount exceeds allowance");
        _transfer(from, to, value);
        unchecked {
            _allowed[from][msg.sender] = allowed - value;
        }
        return true;
    }

    /// @notice EIP-2612 permit; `owner` may be an EOA or an EIP-1271 contract wallet (v2.2: paused-checked
    ///         only, no blacklist check; `type(uint256).max` never expires).
    function permit(
        address owner,
        address spender,
        uint256 value,
        uint256 deadline,
        uint8 v,
        bytes32 r,
        bytes32 s
    ) external whenNotPaused {
        require(
            deadline == type(uint256).max || deadline >= block.timestamp,
            "FiatTokenV2: permit is expired"
        );
        bytes32 structHash = keccak256(
            abi.encode(PERMIT_TYPEHASH, owner, spender, value, _permitNonces[owner]++, deadline)
        );
        bytes32 digest = keccak256(abi.encodePacked("\x19\x01", DOMAIN_SEPARATOR(), structHash));
        require(
            SignatureChecker.isValidSignatureNow(owner, digest, abi.encodePacked(r, s, v)),
            "EIP2612: invalid signature"
        );
        _approve(owner, spender, value);
    }

    /// @notice TEST ONLY, open to anyone: mints `amount` to `to`.
    function mint(
        address to,
        uint256 amount
    ) external whenNotPaused notBlacklisted(msg.sender) notBlacklisted(to) returns (bool) {
        require(to != address(0), "FiatToken: mint to the zero address");
        require(amount > 0, "FiatToken: mint amount not greater than 0");
        uint256 supply = _totalSupply + amount;
        require(supply < BLACKLISTED, "FiatToken: total supply too large");
        _totalSupply = supply;
        _balanceAndBlacklistStates[to] += amount;
        emit Mint(msg.sender, to, amount);
        emit Transfer(address(0), to, amount);
        return true;
    }

    /// @notice TEST ONLY, open to anyone: blacklists `account`.
    function blacklist(address account) external {
        _balanceAndBlacklistStates[account] |= BLACKLISTED;
        emit Blacklisted(account);
    }

    /// @notice TEST ONLY, open to anyone: removes `account` from the blacklist.
    function unBlacklist(address account) external {
        _balanceAndBlacklistStates[account] &= ~BLACKLISTED;
        emit UnBlacklisted(account);
    }

    /// @notice Pauses the token (pauser only).
    function pause() external onlyPauser {
        paused = true;
        emit Pause();
    }

    /// @notice Unpauses the token (pauser only).
    function unpause() external onlyPauser {
        paused = false;
        emit Unpause();
    }

    /// @notice TEST ONLY, open to anyone (FiatToken: owner only): makes `newPauser` the pauser.
    function updatePauser(address newPauser) external {
        require(newPauser != address(0), "Pausable: new pauser is the zero address");
        pauser = newPauser;
        emit PauserChanged(newPauser);
    }

    function _approve(address owner, address spender, uint256 value) private {
        require(owner != address(0), "ERC20: approve from the zero address");
        require(spender != address(0), "ERC20: approve to the zero address");
        _allowed[owner][spender] = value;
        emit Approval(owner, spender, value);
    }

    function _transfer(address from, address to, uint256 value) private {
        require(from != address(0), "ERC20: transfer from the zero address");
        require(to != address(0), "ERC20: transfer to the zero address");
        uint256 fromState = _balanceAndBlacklistStates[from];
        require(value <= fromState & ~BLACKLISTED, "ERC20: transfer amount exceeds balance");
        unchecked {
            _balanceAndBlacklistStates[from] = fromState - value;
        }
        // Cannot reach the flag bit: the total supply stays below 2^255.
        _balanceAndBlacklistStates[to] += value;
        emit Transfer(from, to, value);
    }
}
