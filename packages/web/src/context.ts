/** The app's configuration and API client, provided once at the root. */
import { createContext } from "preact";
import { useContext } from "preact/hooks";
import type { Api } from "./api/client.js";
import type { AppConfig } from "./config.js";

/** What every page reads. */
export interface AppContext {
  config: AppConfig;
  api: Api;
}

export const App = createContext<AppContext | null>(null);

/** The app context (throws outside the root, a programming error). */
export function useApp(): AppContext {
  const ctx = useContext(App);
  if (ctx === null) throw new Error("useApp outside <App.Provider>");
  return ctx;
}
