/**
 * The addresses that can never receive a claim, the one rule (probe11 O11, probe15 B-F16, probe16 B-F8):
 * the platform refuses them as withdrawal addresses and relayed claims' `to`; the Hardhat tasks as
 * `--to` and `--withdrawals`. None of them signs a `Claim` or calls `claim`, and USDC paid to one
 * cannot be moved again: a credit there is lost for good (the contract refuses only itself).
 */
import { isAddress } from "viem";
import { addressBook } from "./addressBook.js";
import { CHAINS } from "./chains.js";
import { protocolContractOfCode } from "./code.js";
import { CREATEX_ADDRESS, expectedAddresses } from "./create2.js";

/**
 * The highest address refused as a precompile: 0x1-0x1ff covers Ethereum's precompiles (0x01-0x11 and
 * those to come) and the chains' own precompile ranges there (e.g. RIP-7212 P256VERIFY at 0x100).
 */
export const MAX_PRECOMPILE = 0x1ffn;
/** The OP-stack predeploy range (Base, Optimism): 0x4200...0000-0x4200...07ff (WETH is ...0006). */
export const OP_PREDEPLOY_FIRST = 0x4200000000000000000000000000000000000000n;
export const OP_PREDEPLOY_LAST = 0x42000000000000000000000000000000000007ffn;

/**
 * Contracts and system accounts at fixed addresses on Base and Base Sepolia (the OP stack's
 * preinstalls, from its `Preinstalls` library, the ERC-4337 EntryPoints and the L1-attributes
 * depositor; Safe's v1.3.0 to v1.5.0 singletons, factories and MultiSend routers at their deterministic
 * addresses; Multicall, Multicall2 and Uniswap's interface multicall; the 0x...dEaD burn address), by name: none of them claims for itself, and a router among them
 * calls what it is asked to, so a credit held by Multicall3 or a MultiSendCallOnly is anyone's to claim
 * through it (probe17 B-F5, probe19 A-F1). A list, not a proof: a contract deployed elsewhere that calls
 * for anyone is not on it (the README says so).
 */
export const CHAIN_FIXED_CONTRACTS: Readonly<Record<string, string>> = {
  "0xca11bde05977b3631167028862be2a173976ca11": "Multicall3 (anyone can claim a credit it holds, through it)",
  "0x13b0d85ccb8bf860b6b79af3029fca081ae9bef2": "Create2Deployer",
  "0x69f4d1788e39c87893c980c06edf4b7f686e2938": "the Safe v1.3.0 singleton",
  "0xfb1bffc9d739b8d520daf37df666da4c687191ea": "the SafeL2 v1.3.0 singleton",
  "0xa1dabef33b3b82c7814b6d82a79e50f4ac44102b": "Safe MultiSendCallOnly v1.3.0",
  "0x998739bfdaadde7c933b942a68053933098f9eda": "Safe MultiSend v1.3.0",
  "0x914d7fec6aac8cd542e72bca78b30650d45643d7": "SafeSingletonFactory",
  "0x4e59b44847b379578588920ca78fbf26c0b4956c": "the deterministic deployment proxy",
  "0x000000000022d473030f116ddee9f6b43ac78ba3": "Permit2",
  "0x7fc98430eaedbb6070b35b39d798725049088348": "the ERC-4337 v0.6 SenderCreator",
  "0x5ff137d4b0fdcd49dca30c7cf57e578a026d2789": "the ERC-4337 v0.6 EntryPoint",
  "0xefc2c1444ebcc4db75e7613d20c6a62ff67a167c":
    "the ERC-4337 v0.7 SenderCreator (anyone can claim a credit it holds, through it)",
  "0x0000f90827f1c53a10cb7a02335b175320002935": "the EIP-2935 history storage contract",
  "0x1820a4b7618bde71dce8cdc73aab6c95905fad24": "the ERC-1820 registry",
  "0x0000000071727de22e5e9d8baf0edac6f37da032": "the ERC-4337 v0.7 EntryPoint",
  "0x000f3df6d732807ef1319fb7b8bb8522d0beac02": "the EIP-4788 beacon roots contract",
  "0xdeaddeaddeaddeaddeaddeaddeaddeaddead0001": "the L1-attributes depositor account",
  // Safe's own deployments at their deterministic addresses, beyond the OP preinstalls (probe19 A-F1): the
  // call-only routers call what anyone asks, so a credit they hold is anyone's; the rest never claim
  "0x40a2accbd92bca938b02010e17a5b8929b49130d":
    "Safe MultiSendCallOnly v1.3.0 (anyone can claim a credit it holds, through it)",
  "0x9641d764fc13c8b624c04430c7356c1c7c8102e2":
    "Safe MultiSendCallOnly v1.4.1 (anyone can claim a credit it holds, through it)",
  "0xa83c336b20401af773b6219ba5027174338d1836":
    "Safe MultiSendCallOnly v1.5.0 (anyone can claim a credit it holds, through it)",
  "0xa238cbeb142c10ef7ad8442c6d1f9e89e07e7761": "Safe MultiSend v1.3.0",
  "0x38869bf66a61cf6bdb996a6ae40d5853fd43b526": "Safe MultiSend v1.4.1",
  "0xd9db270c1b5e3bd161e8c8503c55ceabee709552": "the Safe v1.3.0 singleton",
  "0x3e5c63644e683549055b9be8653de26e0b4cd36e": "the SafeL2 v1.3.0 singleton",
  "0x41675c099f32341bf84bfc5382af534df5c7461a": "the Safe v1.4.1 singleton",
  "0x29fcb43b46531bca003ddc8fcb67ffe91900c762": "the SafeL2 v1.4.1 singleton",
  "0xa6b71e26c5e0845f74c812102ca7114b6a896ab2": "SafeProxyFactory v1.3.0",
  "0x4e1dcf7ad4e460cfd30791ccc4f9c8a4f820ec67": "SafeProxyFactory v1.4.1",
  // the older Multicall routers, where a chain has them (they call what anyone asks, as Multicall3)
  "0x5ba1e12693dc8f9c48aad8770482f4739beed696": "Multicall2 (anyone can claim a credit it holds, through it)",
  "0xeefba1e63905ef1d7acba5a8513c70307c1ce441": "Multicall (anyone can claim a credit it holds, through it)",
  // Uniswap's interface multicall on Base, a fork of Multicall2 (probe21 A-F3): it calls what anyone asks
  "0x091e99cb1c49331a94dd62755d168e941abd0693":
    "Uniswap's UniswapInterfaceMulticall (anyone can claim a credit it holds, through it)",
  // the conventional burn address: nobody holds its key (probe21 A-F3; the zero address is refused above)
  "0x000000000000000000000000000000000000dead":
    "the conventional burn address 0x...dEaD (nobody holds its key)",
  "0x4337084d9e255ff0702461cf8895ce9e3b5ff108": "the ERC-4337 v0.8 EntryPoint",
  "0x449ed7c3e6fee6a97311d4b55475df59c44add33":
    "the ERC-4337 v0.8 SenderCreator (anyone can claim a credit it holds, through it)",
  // deterministic factories and registries, and the key-less senders of the EIP-4788 / EIP-2935 deployments
  // (probe18 F2's "system senders", probe19 B-F4): none claims, no key exists for the senders
  "0xce0042b868300000d44a59004da54a005ffdcf9f": "the ERC-2470 singleton factory",
  "0x0000000000ffe8b47b3e2130213b802212439497": "ImmutableCreate2Factory",
  "0x000000006551c19487814612e58fe06813775758": "the ERC-6551 registry",
  "0x0b799c86a49deeb90402691f1041aa3af2d3c875": "the key-less sender of the EIP-4788 deployment",
  "0x3462413af4609098e1e27a490f554f260213d685": "the key-less sender of the EIP-2935 deployment",
};

/**
 * The protocol's contract addresses (lowercase) on every chain: the CREATE2 addresses of
 * BenchmarkBounty and AnchorRegistry (the same on every chain), CreateX, and every address of the
 * address book (USDC of Base and Base Sepolia, deployed contracts).
 */
export const PROTOCOL_CONTRACTS: readonly string[] = (() => {
  const { benchmarkBounty, anchorRegistry } = expectedAddresses();
  const book = Object.values(addressBook).flatMap((e) => [e.benchmarkBounty, e.anchorRegistry, e.usdc]);
  const chains = Object.values(CHAINS).map((c) => c.usdc);
  const all: (string | null)[] = [benchmarkBounty, anchorRegistry, CREATEX_ADDRESS, ...book, ...chains];
  return [...new Set(all.filter((a): a is string => a !== null).map((a) => a.toLowerCase()))];
})();

/**
 * The address forms the platform accepts (EIP-55), the one place: `0x` and 40 hex digits, either
 * unchecksummed (all lower-case, or all upper-case: probeD2 F8, ethers' `getAddress` accepts it too) or
 * mixed-case with a valid EIP-55 checksum (viem's strict `isAddress` refused all upper-case). The
 * platform checks withdrawal addresses with it, the Hardhat tasks `--to` and `--withdrawals` (probe17 B-F6).
 * @returns `ok`, `not_an_address` or `bad_checksum`; never throws
 */
export function addressForm(addr: string): "ok" | "not_an_address" | "bad_checksum" {
  if (!/^0x[0-9a-fA-F]{40}$/.test(addr)) return "not_an_address";
  const hex = addr.slice(2);
  if (hex === hex.toLowerCase() || hex === hex.toUpperCase()) return "ok";
  return isAddress(addr, { strict: true }) ? "ok" : "bad_checksum";
}

/** The words of {@link CHAIN_FIXED_CONTRACTS} marking a router: it calls what anyone asks it to. */
const ROUTER_NOTE = "(anyone can claim a credit it holds, through it)";

/** Why an address can never claim: the refusal's `reason` and its words (without the field's name). */
export interface RecipientProblem {
  reason: "zero_address" | "precompile" | "predeploy" | "preinstall" | "platform_contract";
  message: string;
  /** What the address is, without the consequence: `0x... is a precompile address (0x1-0x1ff)`. */
  what: string;
  /** True for a router (Multicall3, a MultiSendCallOnly, ...): it calls what anyone asks it to. */
  router: boolean;
}

/**
 * Why USDC paid to `address` would be lost, or null when it may receive a claim. The same addresses can
 * never be a bounty's awarder either (the Hardhat `bounty:lock --awarder`, probe19 B-F9): a router would
 * let anyone award through it, the others never call `award`.
 * @param address a 0x address of 40 hex digits (its form checked by the caller)
 * @param contracts the contract addresses of the chain at hand (any case), refused with
 *   {@link PROTOCOL_CONTRACTS}
 * @returns `zero_address`, `precompile` (0x1-0x1ff), `predeploy` (0x4200...0000-...07ff),
 *   `preinstall` ({@link CHAIN_FIXED_CONTRACTS}) or `platform_contract`, with a message naming the
 *   address, what it is, and whether it is a router; never throws for a well-formed address
 */
export function recipientProblem(
  address: string,
  contracts: readonly string[] = [],
): RecipientProblem | null {
  const n = BigInt(address);
  const problem = (reason: RecipientProblem["reason"], what: string, why: string, router = false) => ({
    reason,
    message: `${what}: ${why}`,
    what,
    router,
  });
  if (n === 0n)
    return {
      ...problem("zero_address", "the zero address", ""),
      message: "the zero address can never claim",
    };
  if (n <= MAX_PRECOMPILE)
    return problem(
      "precompile",
      `${address} is a precompile address (0x1-0x${MAX_PRECOMPILE.toString(16)})`,
      "it can never claim",
    );
  if (n >= OP_PREDEPLOY_FIRST && n <= OP_PREDEPLOY_LAST)
    return problem(
      "predeploy",
      `${address} is an OP-stack predeploy (0x4200000000000000000000000000000000000000-...07ff, e.g. WETH at ...0006 on Base)`,
      "it can never claim",
    );
  const lower = address.toLowerCase();
  const fixed = CHAIN_FIXED_CONTRACTS[lower];
  if (fixed !== undefined)
    return problem(
      "preinstall",
      `${address} is ${fixed}, at a fixed address on Base`,
      "it never claims for itself, a credit there is lost or anyone's",
      fixed.includes(ROUTER_NOTE),
    );
  if (PROTOCOL_CONTRACTS.includes(lower) || contracts.some((c) => c.toLowerCase() === lower))
    return problem(
      "platform_contract",
      `${address} is one of the protocol's contracts (BenchmarkBounty, AnchorRegistry, USDC, CreateX)`,
      "it can never claim, credit there is lost",
    );
  return null;
}

/**
 * Why USDC paid to `address` would be lost, judged by the code it runs (probe26 C-F7): a
 * BenchmarkBounty or an AnchorRegistry deployed at any address (an earlier or a test deployment; the
 * address list of {@link recipientProblem} knows only the protocol's own), recognised by
 * {@link protocolContractOfCode}. Neither claims a credit for itself nor moves a token it holds. Any
 * other code (a smart-contract wallet, a Safe) is allowed: only what is certain is refused. Where a
 * chain is at hand, callers run it after {@link recipientProblem} on `eth_getCode(address)`.
 * @param code what `eth_getCode(address)` returned (`0x` for none)
 * @returns a `platform_contract` problem naming the address and the contract, or null; never throws
 */
export function recipientCodeProblem(address: string, code: `0x${string}`): RecipientProblem | null {
  const contract = protocolContractOfCode(code);
  if (contract === null) return null;
  const what = `${address} runs the protocol's ${contract} code (a deployment at another address)`;
  return {
    reason: "platform_contract",
    message: `${what}: it can never claim, credit there is lost`,
    what,
    router: false,
  };
}
