/** The award: winners, places, amounts (from the pack), claim state and outstanding credit (from the indexer), transactions linked. */
import { useApp } from "../context.js";
import { Loaded, MaybeLink, errorText, useLoad } from "../components/ui.js";
import { BenchmarkNav } from "../components/nav.js";
import { outstandingTotal, placeViews } from "../domain/award.js";
import { chainViewOf, txUrl, addressUrl, blockUrl } from "../domain/explorer.js";
import { formatUsdc } from "../domain/usdc.js";
import type { Api } from "../api/client.js";
import type { EvidencePack, IndexedBounty } from "../api/types.js";

/** The indexer's bounty, or the error text (the award page still shows the pack's side). */
async function indexed(
  api: Api,
  bountyId: string,
): Promise<{ indexed: IndexedBounty | null; indexerError: string | null }> {
  try {
    return { indexed: await api.indexedBounty(bountyId), indexerError: null };
  } catch (e) {
    return { indexed: null, indexerError: errorText(e) };
  }
}

async function loadAward(api: Api, slug: string) {
  // Detail and pack at once; the indexer as soon as the detail names the bounty (else after the pack).
  const detailP = api.benchmark(slug);
  const earlyP = detailP.then((d) => (d.bounty?.bounty_id ? indexed(api, d.bounty.bounty_id) : null));
  const [detail, bytes, early] = await Promise.all([detailP, api.packBytes(slug), earlyP]);
  const pack = JSON.parse(new TextDecoder().decode(bytes)) as EvidencePack;
  const side =
    early !== null && detail.bounty?.bounty_id === pack.benchmark.bounty_id
      ? early
      : await indexed(api, pack.benchmark.bounty_id);
  return { detail, pack, ...side };
}

/** `#/b/SLUG/award` */
export function AwardPage(props: { slug: string }) {
  const { api, config } = useApp();
  const load = useLoad(() => loadAward(api, props.slug), [api, props.slug]);
  return (
    <section>
      <BenchmarkNav slug={props.slug} current="award" />
      <Loaded load={load} what="the award">
        {({ detail, pack, indexed, indexerError }) => {
          const chain = chainViewOf(
            { ...detail, chain: detail.chain ?? { chain_id: pack.benchmark.chain_id } },
            config.localChain,
          );
          const places = placeViews(pack, indexed);
          const outstanding = outstandingTotal(places);
          const b = pack.benchmark;
          return (
            <>
              <h1>Award: {detail.title}</h1>
              <dl class="facts" id="award-facts">
                <dt>Pool</dt>
                <dd data-field="pool">{formatUsdc(b.pool_base_units)}</dd>
                <dt>Award transaction</dt>
                <dd>
                  <MaybeLink url={txUrl(chain, b.award_tx)} value={b.award_tx} /> in block{" "}
                  <MaybeLink url={blockUrl(chain, b.award_block)} value={String(b.award_block)} />
                </dd>
                <dt>Bounty</dt>
                <dd>
                  #{b.bounty_id} on{" "}
                  <MaybeLink url={addressUrl(chain, b.bounty_contract)} value={b.bounty_contract} />
                </dd>
                <dt>Payout rule</dt>
                <dd>
                  {pack.rank_derivation.payout_rule} ({pack.rank_derivation.splits_bps.join(" / ")} bps),
                  threshold {pack.rank_derivation.threshold_bps} bps
                </dd>
                <dt>Outstanding credit (winners)</dt>
                <dd data-field="outstanding">
                  {outstanding === null ? "not observed (no indexer answer)" : formatUsdc(outstanding)}
                </dd>
              </dl>
              {pack.winners.length === 0 ? (
                <p id="zero-winners">
                  No winners: <code>{pack.rank_derivation.zero_winner_reason}</code>. The pool returns to the
                  author.
                </p>
              ) : (
                <table id="winners">
                  <thead>
                    <tr>
                      <th>Place</th>
                      <th>Agent</th>
                      <th>Withdrawal address</th>
                      <th>Amount</th>
                      <th>Claim state</th>
                      <th>Claimed</th>
                      <th>Outstanding</th>
                      <th>Claim tx</th>
                    </tr>
                  </thead>
                  <tbody>
                    {places.map((p) => (
                      <tr data-place={p.place}>
                        <td class="num">{p.place}</td>
                        <td data-col="agent">{p.agent}</td>
                        <td>
                          <MaybeLink url={addressUrl(chain, p.account)} value={p.account} short />
                        </td>
                        <td class="num" data-col="amount">
                          {formatUsdc(p.amountBaseUnits)}
                        </td>
                        <td data-col="claim">
                          {p.claimState}
                          {p.disagreements.map((d) => (
                            <div class="error">indexer disagrees: {d}</div>
                          ))}
                        </td>
                        <td class="num">{formatUsdc(p.claimedBaseUnits)}</td>
                        <td class="num" data-col="outstanding">
                          {formatUsdc(p.outstandingBaseUnits)}
                        </td>
                        <td>
                          {p.claimTx ? (
                            <MaybeLink url={txUrl(chain, p.claimTx)} value={p.claimTx} short />
                          ) : (
                            "--"
                          )}
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              )}
              <p class="muted" id="indexer-note">
                {config.indexerUrl === null
                  ? "No indexer is configured for this deployment: claim state and outstanding credit are not observed."
                  : indexerError !== null
                    ? `The indexer (${config.indexerUrl}) could not be read: ${indexerError}`
                    : `Claims and outstanding credit read from the indexer at ${config.indexerUrl}. A winner's amount is credit granted; the winner claims it from the contract.`}
              </p>
            </>
          );
        }}
      </Loaded>
    </section>
  );
}
