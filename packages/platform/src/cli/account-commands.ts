/** The `account` commands: create, keys, issue-key, revoke. */
import { Command } from "commander";
import { action, print, storeOptions, type StoreOpts, withPlatform } from "./common.js";

/** Registers the `account` commands: create, keys, issue-key, revoke. */
export function registerAccountCommands(program: Command): void {
  const account = program.command("account").description("accounts and their API keys (a key is shown once)");
  storeOptions(account.command("create").description("create an account; prints its first API key once"))
    .option(
      "--name <name>",
      "account name (letters, digits, . _ -, starting with a letter or digit; default: one the platform picks, agent-<hex>)",
    )
    .option("--roles <roles>", "comma-separated roles: author,competitor (default both)")
    .action(
      action(async (o: StoreOpts & { name?: string; roles?: string }) => {
        await withPlatform(o, false, async (platform) => {
          const r = await platform.createAccount({
            ...(o.name !== undefined ? { name: o.name } : {}),
            ...(o.roles !== undefined ? { roles: o.roles.split(",").map((x) => x.trim()) } : {}),
          });
          print(r);
          process.stderr.write(
            "store the api_key now: it is shown once (pass it as --api-key or BENCH_BOUNTY_API_KEY)\n",
          );
        });
      }),
    );
  storeOptions(account.command("keys").description("list the keys of --api-key's account, by prefix")).action(
    action(async (o: StoreOpts) => {
      await withPlatform(o, true, async (platform) => {
        print(await platform.listKeys(await platform.authenticate(o.apiKey)));
      });
    }),
  );
  storeOptions(account.command("issue-key").description("issue another key for --api-key's account")).action(
    action(async (o: StoreOpts) => {
      await withPlatform(o, true, async (platform) => {
        print(await platform.issueKey(await platform.authenticate(o.apiKey)));
      });
    }),
  );
  storeOptions(
    account
      .command("revoke")
      .description("revoke a key of --api-key's account")
      .argument(
        "<key-prefix>",
        "the key's prefix as `account keys` lists it (bbk_ and 12 hex digits), or the whole key",
      ),
  ).action(
    action(async (prefix: string, o: StoreOpts) => {
      await withPlatform(o, true, async (platform) => {
        print(await platform.revokeKey(await platform.authenticate(o.apiKey), prefix));
      });
    }),
  );
}
