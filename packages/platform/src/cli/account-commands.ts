/**
 * The `account` commands: create, keys, issue-key, revoke. `keys`, `issue-key` and `revoke` act on the
 * local store, or with `--server URL --api-key KEY` (env `BENCH_BOUNTY_SERVER`) on the key's account on
 * that server, through the {@link RemoteAccountKeys} the bin gives (`PlatformCommandHooks`: the platform
 * never speaks HTTP), as `run --server` does.
 */
import { Command } from "commander";
import { PlatformError } from "../errors.js";
import type { Principal } from "../identity/principal.js";
import type { Platform } from "../platform.js";
import { keyPrefixNamed, type IssuedKey, type KeyListing } from "../identity/accounts.js";
import { action, print, storeOptions, type StoreOpts, withPlatform } from "./common.js";
import { remoteOf, serverOption, type PlatformCommandHooks } from "./run-commands.js";

/**
 * The caller's API keys on a server (`account ... --server`), acting as the holder of `--api-key`; the
 * answers have the local commands' shapes. Refusals are PlatformErrors of the server's codes.
 */
export interface RemoteAccountKeys {
  /** The account's keys by prefix, oldest first (`GET /api/v1/accounts/me`'s `keys`). */
  keys(): Promise<KeyListing[]>;
  /** One more key for the account (`POST /api/v1/accounts/me/keys`), shown this once. @throws `too_many_keys` */
  issueKey(): Promise<IssuedKey>;
  /**
   * Revokes the account's key of this prefix (`DELETE /api/v1/accounts/me/keys/{key_prefix}`): its
   * listing. `keyPrefix` is a prefix (`bbk_<12 hex>`), never a whole key (it goes into a URL).
   * @throws `unknown_key`, `last_active_key`
   */
  revokeKey(keyPrefix: string): Promise<KeyListing>;
}

/** What `keys`, `issue-key` and `revoke` take: the store's options and `--server`. */
type KeyOpts = StoreOpts & { server?: string };

/** With `--server`: the server's account keys of `--api-key` ({@link remoteOf}'s checks); else null. */
function remoteKeys(o: KeyOpts, hooks: PlatformCommandHooks): RemoteAccountKeys | null {
  if (!o.server) return null;
  const { hook, apiKey } = remoteOf(
    { ...o, server: o.server },
    hooks.remoteAccountKeys,
    "the keys are its account's",
  );
  return hook(o.server, apiKey);
}

/**
 * The account of `--api-key` (env `BENCH_BOUNTY_API_KEY`), which `keys`, `issue-key` and `revoke` act on.
 * @throws PlatformError `unauthenticated` (`key_required`) naming the option and the variable when no key
 *   was given (an empty one is none: b40's note, it said "invalid API key: none given"); the platform's
 *   `unauthenticated` for a key nobody holds
 */
async function keyAccount(platform: Platform, o: KeyOpts): Promise<Principal> {
  if (o.apiKey === undefined)
    throw new PlatformError(
      "unauthenticated",
      "this needs --api-key (or BENCH_BOUNTY_API_KEY): the keys listed, issued or revoked are that key's account's",
      { rule: "key_required" },
    );
  return platform.authenticate(o.apiKey);
}

/** Registers the `account` commands: create, keys, issue-key, revoke. */
export function registerAccountCommands(program: Command, hooks: PlatformCommandHooks = {}): void {
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
  storeOptions(account.command("keys").description("list the keys of --api-key's account, by prefix"))
    .addOption(serverOption("list them"))
    .action(
      action(async (o: KeyOpts) => {
        const remote = remoteKeys(o, hooks);
        if (remote) return print(await remote.keys());
        await withPlatform(o, true, async (platform) => {
          print(await platform.listKeys(await keyAccount(platform, o)));
        });
      }),
    );
  storeOptions(account.command("issue-key").description("issue another key for --api-key's account"))
    .addOption(serverOption("issue it"))
    .action(
      action(async (o: KeyOpts) => {
        const remote = remoteKeys(o, hooks);
        if (remote) return print(await remote.issueKey());
        await withPlatform(o, true, async (platform) => {
          print(await platform.issueKey(await keyAccount(platform, o)));
        });
      }),
    );
  storeOptions(
    account
      .command("revoke")
      .description("revoke a key of --api-key's account")
      .argument(
        "<key-prefix>",
        "the key's prefix as `account keys` lists it (bbk_ and 12 hex digits), or the whole key (with --server only its prefix is sent)",
      ),
  )
    .addOption(serverOption("revoke it"))
    .action(
      action(async (named: string, o: KeyOpts) => {
        const remote = remoteKeys(o, hooks);
        // a whole key never goes into the server's URL: its prefix does (keys29 item 3)
        if (remote) return print(await remote.revokeKey(keyPrefixNamed(named)));
        await withPlatform(o, true, async (platform) => {
          print(await platform.revokeKey(await keyAccount(platform, o), named));
        });
      }),
    );
}
