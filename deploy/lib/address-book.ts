/**
 * Where the tasks read and record the contract addresses of a network.
 *
 * - Base and Base Sepolia: the tracked address book of @bench-bounty/contracts
 *   (`packages/contracts/deployments.json`, keys `8453` / `84532`); commit it
 *   after a deployment. `BENCH_BOUNTY_ADDRESS_BOOK` points the tasks at another copy.
 * - A local node: `deploy/.local/deployments.json`, an untracked file in a
 *   git-ignored folder (`deploy/.gitignore`), so a local walkthrough leaves the
 *   working tree clean. `BENCH_BOUNTY_LOCAL_DEPLOYMENT` points at another file.
 *   A local node forgets everything on restart; the tasks then fall back to the
 *   CREATE2 addresses (see `resolveAddresses` in context.ts).
 */
import fs from "node:fs";
import path from "node:path";
import type { AddressBookEntry } from "@bench-bounty/contracts";
import { TaskError } from "./errors";
import { readBoundedFile } from "./files";
import { contracts } from "./packages";
import type { NetworkProfile } from "./network";

/** The default file of a local node's deployment (git-ignored). */
export const LOCAL_DEPLOYMENT_FILE = path.join(__dirname, "..", ".local", "deployments.json");

/** The file holding the entry of `profile`: the local deployment file, or the tracked address book. */
export function entryFile(profile: NetworkProfile): string {
  if (profile.bookKey === "local") return process.env.BENCH_BOUNTY_LOCAL_DEPLOYMENT ?? LOCAL_DEPLOYMENT_FILE;
  return process.env.BENCH_BOUNTY_ADDRESS_BOOK ?? contracts().ADDRESS_BOOK_FILE;
}

/** The variable naming the address book file of a network (for a refusal). */
function entryVariable(profile: NetworkProfile): string {
  return profile.bookKey === "local" ? "BENCH_BOUNTY_LOCAL_DEPLOYMENT" : "BENCH_BOUNTY_ADDRESS_BOOK";
}

/**
 * The recorded entry of a network, or undefined when nothing was recorded (no local file yet).
 * @throws TaskError naming the file's variable for a directory, device, FIFO or file over the bound
 *   ({@link readBoundedFile}); `Cannot read the address book ...` for a file that does not parse
 */
export function readEntry(profile: NetworkProfile): AddressBookEntry | undefined {
  const file = entryFile(profile);
  if (profile.bookKey === "local" && !fs.existsSync(file)) return undefined;
  const bytes = readBoundedFile(file, entryVariable(profile));
  let doc: unknown;
  try {
    doc = JSON.parse(bytes.toString("utf8"));
  } catch (e) {
    throw new TaskError(`Cannot read the address book ${file}: ${(e as Error).message.split("\n")[0]}`);
  }
  if (profile.bookKey === "local") return doc as AddressBookEntry;
  return (doc as Record<string, AddressBookEntry>)[profile.bookKey];
}

/**
 * Records the entry of a network atomically (temp file + rename): the local file
 * as a whole, or the one key of the tracked address book, keeping the others.
 * @returns the file written
 */
export function writeEntry(profile: NetworkProfile, entry: AddressBookEntry): string {
  const file = entryFile(profile);
  let doc: unknown = entry;
  if (profile.bookKey !== "local") {
    const book = JSON.parse(readBoundedFile(file, entryVariable(profile)).toString("utf8")) as Record<
      string,
      AddressBookEntry
    >;
    book[profile.bookKey] = entry;
    doc = book;
  }
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, JSON.stringify(doc, null, 2) + "\n");
  fs.renameSync(tmp, file);
  return file;
}
