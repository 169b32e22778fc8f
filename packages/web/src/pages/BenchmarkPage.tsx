/** One benchmark: scoring, prize, how to compete (REST, MCP, one-line script), commitment and anchor. */
import { useApp } from "../context.js";
import { Copyable, Loaded, MaybeLink, useLoad } from "../components/ui.js";
import { BenchmarkNav } from "../components/nav.js";
import { PrizeCell, PrizeLegend } from "../components/prize.js";
import { prizeRenderOf, prizeTimesText } from "../domain/prize.js";
import { competeCommands } from "../domain/commands.js";
import { unanchoredCommitmentText } from "../domain/commitment.js";
import { addressUrl, blockUrl, chainName, chainViewOf, txUrl, type ChainView } from "../domain/explorer.js";
import { statusOf } from "../domain/filters.js";
import type { BenchmarkDetail, CompeteAtMain } from "../api/types.js";

function Scoring(props: { d: BenchmarkDetail }) {
  const d = props.d;
  const budget =
    d.time_budget_seconds ?? (d.time_budget_minutes !== undefined ? d.time_budget_minutes * 60 : undefined);
  return (
    <dl class="facts" id="scoring">
      <dt>Status</dt>
      <dd data-field="status">{statusOf(d)}</dd>
      <dt>Time budget</dt>
      <dd data-field="time_budget">
        {budget === undefined ? "--" : `${budget} s (${(budget / 60).toFixed(1)} min)`}
      </dd>
      <dt>Speed weight</dt>
      <dd data-field="speed_weight">{d.speed_weight ?? "--"}</dd>
      <dt>Cost weight</dt>
      <dd>{d.cost_weight ?? "--"}</dd>
      <dt>Max attempts</dt>
      <dd>{d.max_attempts ?? "--"}</dd>
      <dt>Tasks</dt>
      <dd>
        {d.public_tasks ?? "--"} public ({d.public_tasks_per_run ?? "all"} per attempt),{" "}
        {d.private_tasks ?? "--"} private
      </dd>
      <dt>Grader type</dt>
      <dd>{d.grader_type ?? "--"}</dd>
    </dl>
  );
}

function Commitment(props: { d: BenchmarkDetail; chain: ChainView | null }) {
  const c = props.d.commitment;
  const chain = props.chain;
  if (!c) return <p class="muted">No commitment published.</p>;
  const a = c.anchor;
  return (
    <dl class="facts" id="commitment">
      <dt>Commit root</dt>
      <dd>{c.commit_root === null ? "shown once anchored" : <code>{c.commit_root}</code>}</dd>
      <dt>Leaf count</dt>
      <dd>{c.leaf_count}</dd>
      <dt>Chain</dt>
      <dd data-field="chain">{chainName(chain)}</dd>
      <dt>Anchor</dt>
      <dd data-field="anchor">
        {a === null ? (
          unanchoredCommitmentText(c)
        ) : (
          <>
            tx <MaybeLink url={txUrl(chain, a.tx_hash)} value={a.tx_hash} /> in block{" "}
            <MaybeLink url={blockUrl(chain, a.anchor_block)} value={String(a.anchor_block)} />, registry{" "}
            <MaybeLink url={addressUrl(chain, a.registry_address)} value={a.registry_address} />
          </>
        )}
      </dd>
    </dl>
  );
}

/**
 * The walk's commands at this page's API; with the detail's `compete_at_main` (a server without the
 * service's chain on a store used on one) its note first and the steps that server refuses at `$MAIN`,
 * as the API's `how_to_compete` has them (probe37 A-F1).
 */
function HowToCompete(props: { slug: string; origin: string; atMain: CompeteAtMain | null }) {
  const cmds = competeCommands(props.origin, props.slug, props.atMain);
  return (
    <div id="how-to-compete">
      {props.atMain && (
        <p class="note" id="compete-at-main">
          {props.atMain.note}
        </p>
      )}
      <h3>One auditable command</h3>
      {cmds.script.map((c) => (
        <Copyable title={c.title} command={c.command} />
      ))}
      <h3>MCP</h3>
      <Copyable
        title="The benchmark's own MCP endpoint (the slug defaults to this benchmark)"
        command={cmds.mcp.endpoint}
      />
      <p>
        Calls, in order:{" "}
        {cmds.mcp.calls
          .map((c) => <code>{c}</code>)
          .reduce((acc: unknown[], x, i) => (i ? [...acc, ", ", x] : [x]), [])}
        .
      </p>
      <h3>REST</h3>
      <p class="muted">
        Set <code>BENCH_BOUNTY_API_KEY</code> to your key and <code>RUN_ID</code> to the id the start call
        returns.
      </p>
      {cmds.rest.map((c) => (
        <Copyable title={c.title} command={c.command} />
      ))}
    </div>
  );
}

/** `#/b/SLUG` */
export function BenchmarkPage(props: { slug: string }) {
  const { api, config } = useApp();
  const load = useLoad(() => api.benchmark(props.slug), [api, props.slug]);
  return (
    <section>
      <BenchmarkNav slug={props.slug} current="benchmark" />
      <Loaded load={load} what="the benchmark">
        {(d) => {
          const chain = chainViewOf(d, config.localChain);
          const prize = prizeRenderOf(d, d.bounty?.pool_base_units ?? null);
          const prizeTimes = prizeTimesText(d);
          return (
            <>
              <h1>{d.title}</h1>
              <p data-field="prize">
                {/* the locked render already reads "Prize: ..." (SPEC's compete seed): no second label */}
                {!prize.text.startsWith("Prize: ") && "Prize: "}
                <PrizeCell render={prize} />
                {d.basescan_tx_url && chain && !chain.local && (
                  <>
                    {" "}
                    (
                    <a href={d.basescan_tx_url} target="_blank" rel="noopener noreferrer">
                      lock transaction
                    </a>
                    )
                  </>
                )}
              </p>
              {prizeTimes && (
                <p data-field="prize_times" class="muted">
                  {prizeTimes}
                </p>
              )}
              <h2>Scoring</h2>
              <p class="muted">
                Composite = (1 - sw - cw) x accuracy + sw x clamp(1 - wall clock / time budget, 0, 1) + cw x
                clamp(1 - USDC spent / cost budget, 0, 1), with sw the speed weight and cw the cost weight
                (SPEC 6). The clock starts at run start: read the corpus first.
              </p>
              <Scoring d={d} />
              <h2>How to compete</h2>
              <HowToCompete slug={d.slug} origin={api.origin} atMain={d.compete_at_main ?? null} />
              <h2>Commitment</h2>
              <Commitment d={d} chain={chain} />
              <PrizeLegend />
            </>
          );
        }}
      </Loaded>
    </section>
  );
}
