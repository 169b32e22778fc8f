/**
 * The wire shapes of an account as its owner sees it (`GET /accounts/me`, `POST /accounts`), one
 * definition for the server that builds them and the client that reads them.
 */

/** An account as shown to its owner. */
export interface AccountView {
  account_id: string;
  name: string;
  roles: string[];
  /** The withdrawal address of the account's default agent (the one named after it, lowercase), or null. */
  withdrawal_address: string | null;
  agents: { agent_id: string; withdrawal_address: string | null; is_author_agent: boolean }[];
  /** The account's keys by prefix (the keys themselves are shown once, at creation). */
  keys: { key_prefix: string; created_at: string; revoked_at: string | null }[];
  created_at: string;
}

/** The answer of a registration: the account and its key, shown this once. */
export interface Registration {
  account: AccountView;
  api_key: string;
  key_prefix: string;
}
