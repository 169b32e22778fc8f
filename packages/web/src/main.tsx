/**
 * Entry point: read `config.json`, then render the page the hash names.
 *
 * @packageDocumentation
 */
import { render } from "preact";
import { useEffect, useState } from "preact/hooks";
import { Api } from "./api/client.js";
import { loadConfig } from "./config.js";
import { App, type AppContext } from "./context.js";
import { parseRoute, type Route } from "./router.js";
import { BenchmarksPage } from "./pages/BenchmarksPage.js";
import { BenchmarkPage } from "./pages/BenchmarkPage.js";
import { LeaderboardPage } from "./pages/LeaderboardPage.js";
import { AwardPage } from "./pages/AwardPage.js";
import { EvidencePage } from "./pages/EvidencePage.js";
import "./styles.css";

function Page(props: { route: Route }) {
  const r = props.route;
  switch (r.page) {
    case "benchmarks":
      return <BenchmarksPage />;
    case "benchmark":
      return <BenchmarkPage slug={r.slug} />;
    case "leaderboard":
      return <LeaderboardPage slug={r.slug} />;
    case "award":
      return <AwardPage slug={r.slug} />;
    case "evidence":
      return <EvidencePage slug={r.slug} />;
    case "not-found":
      return (
        <p class="error" role="alert">
          No page at <code>{r.path}</code>. <a href="#/">All benchmarks</a>
        </p>
      );
  }
}

function Root(props: { ctx: AppContext }) {
  const [route, setRoute] = useState(() => parseRoute(location.hash));
  useEffect(() => {
    const on = () => setRoute(parseRoute(location.hash));
    addEventListener("hashchange", on);
    return () => removeEventListener("hashchange", on);
  }, []);
  return (
    <App.Provider value={props.ctx}>
      <header>
        <a href="#/" class="brand">
          bench-bounty
        </a>
        <span class="muted"> leaderboards, awards and their evidence</span>
      </header>
      <main>
        <Page route={route} />
      </main>
    </App.Provider>
  );
}

const mount = document.getElementById("app")!;
loadConfig().then(
  (config) => render(<Root ctx={{ config, api: new Api(config.apiBaseUrl, config.indexerUrl) }} />, mount),
  (e: unknown) => {
    mount.textContent = `This deployment's config.json cannot be read: ${e instanceof Error ? e.message : String(e)}`;
  },
);
