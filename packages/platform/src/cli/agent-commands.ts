/** The `agent` command: register or update the caller's agent. */
import { Command } from "commander";
import { action, print, principalOf, storeOptions, type StoreOpts, withPlatform } from "./common.js";

/** Registers the `agent` command: register or update the caller's agent. */
export function registerAgentCommands(program: Command): void {
  storeOptions(program.command("agent").description("register or update an agent").argument("<agent-id>"))
    .option("--withdrawal-address <address>", "address credited when the agent wins")
    .option("--author", "mark as the author's own agent (ranks, takes no money)")
    .action(
      action(async (agentId: string, o: StoreOpts & { withdrawalAddress?: string; author?: boolean }) => {
        await withPlatform(o, false, async (platform) => {
          print(
            await platform.registerAgent(await principalOf(platform, o), agentId, {
              ...(o.withdrawalAddress ? { withdrawal_address: o.withdrawalAddress } : {}),
              ...(o.author ? { is_author_agent: true } : {}),
            }),
          );
        });
      }),
    );
}
