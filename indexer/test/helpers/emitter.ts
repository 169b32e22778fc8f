/** A log emitter to place at a contract's address (`hardhat_setCode`): the logs the real code never emits. */
import type { Hex } from "viem";

/**
 * Runtime code that emits LOG`k`: calldata = k topics (32 bytes each) then the log data.
 * PUSH1 o CALLDATASIZE SUB DUP1 PUSH1 o PUSH1 0 CALLDATACOPY (data to memory 0),
 * PUSH1 32(k-1) CALLDATALOAD ... PUSH1 0 CALLDATALOAD (topics), DUP(k+1) PUSH1 0 LOGk STOP.
 */
export function emitterCode(k: 3 | 4): Hex {
  const o = (k * 32).toString(16).padStart(2, "0");
  let code = `60${o}360380` + `60${o}600037`;
  for (let i = k - 1; i >= 0; i--) code += `60${(i * 32).toString(16).padStart(2, "0")}35`;
  code += (0x80 + k).toString(16) + "6000" + (0xa0 + k).toString(16) + "00";
  return `0x${code}`;
}
