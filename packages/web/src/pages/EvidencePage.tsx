/**
 * The evidence: the pack and the verification report as their exact bytes, the command to verify
 * locally, and every SPEC 9 fact as its own label with its own state and reasons, plus the policy
 * name and version, the verifier version and when it ran. Never one combined badge.
 */
import { useApp } from "../context.js";
import { Copyable, Download, Loaded, errorText, useLoad } from "../components/ui.js";
import { BenchmarkNav } from "../components/nav.js";
import { FACT_STATES, STATE_MEANING, factViews, type FactView } from "../domain/facts.js";
import { verifyCommand } from "../domain/commands.js";
import type { Api } from "../api/client.js";
import type { VerificationRecord, VerificationReport } from "../api/types.js";

async function loadEvidence(api: Api, slug: string) {
  // The pack and the stored verification are independent: read them at once.
  const [pack, verification] = await Promise.all([
    api.packBytes(slug),
    api.verification(slug).then(
      (record) => ({ record, error: null }),
      (e: unknown) => ({ record: null, error: errorText(e) }),
    ),
  ]);
  const record: VerificationRecord | null = verification.record;
  let verificationError: string | null = verification.error;
  let report: VerificationReport | null = null;
  let reportBytes: Uint8Array | null = null;
  if (record !== null && record.state === "done") {
    try {
      reportBytes = await api.reportBytes(slug, record);
      report = JSON.parse(new TextDecoder().decode(reportBytes)) as VerificationReport;
    } catch (e) {
      verificationError = errorText(e);
    }
  }
  return { pack, record, report, reportBytes, verificationError };
}

function FactLabel(props: { f: FactView }) {
  const f = props.f;
  return (
    <li class={`fact state-${f.state}`} data-fact={f.name} data-state={f.state}>
      <span class="fact-name">{f.label}</span> <span class="fact-state">{f.state}</span>
      {f.source && <span class="muted"> (from the {f.source})</span>}
      {f.reasons.length > 0 && (
        <ul class="reasons">
          {f.reasons.map((r) => (
            <li>{r}</li>
          ))}
        </ul>
      )}
    </li>
  );
}

function Report(props: { record: VerificationRecord; report: VerificationReport }) {
  const { record, report } = props;
  const facts = factViews(report.facts);
  return (
    <>
      <dl class="facts" id="verification-meta">
        <dt>Policy</dt>
        <dd data-field="policy">
          {report.policy} version {report.policy_version ?? record.policy_version ?? "(not stated)"}
        </dd>
        <dt>Policy outcome</dt>
        <dd data-field="policy-outcome">
          {report.policy_met
            ? `the ${report.policy} policy is met`
            : `the ${report.policy} policy is not met (${report.policy_unmet.join(", ")})`}
          <span class="muted"> (a named policy over the facts below, not a fact)</span>
        </dd>
        <dt>Verifier</dt>
        <dd data-field="verifier">
          {report.verifier.name} {report.verifier.version}
        </dd>
        <dt>Ran at</dt>
        <dd data-field="ran-at">{report.generated_at ?? record.ran_at ?? "(not stated)"}</dd>
        <dt>Consulted</dt>
        <dd>
          chain: {report.observed?.rpc ? "yes" : "no"}, indexer: {report.observed?.indexer ? "yes" : "no"}
        </dd>
      </dl>
      <h2>Facts</h2>
      <p class="muted">
        Each fact is recomputed on its own; read each one. States:{" "}
        {FACT_STATES.map((s) => `${s} (${STATE_MEANING[s]})`).join("; ")}.
      </p>
      <ul class="fact-list" id="facts">
        {facts.map((f) => (
          <FactLabel f={f} />
        ))}
      </ul>
    </>
  );
}

/** `#/b/SLUG/evidence` */
export function EvidencePage(props: { slug: string }) {
  const { api, config } = useApp();
  const load = useLoad(() => loadEvidence(api, props.slug), [api, props.slug]);
  return (
    <section>
      <BenchmarkNav slug={props.slug} current="evidence" />
      <h1>Evidence</h1>
      <Loaded load={load} what="the award evidence">
        {({ pack, record, report, reportBytes, verificationError }) => (
          <>
            <p class="downloads">
              <Download
                bytes={pack}
                filename="pack.json"
                label="Download the evidence pack"
                testId="download-pack"
              />{" "}
              {reportBytes && (
                <Download
                  bytes={reportBytes}
                  filename="verification-report.json"
                  label="Download the verification report"
                  testId="download-report"
                />
              )}
            </p>
            <p>
              The pack is also at <a href={api.packUrl(props.slug)}>{api.packUrl(props.slug)}</a>. Verify it
              yourself, trusting nothing of this site:
            </p>
            <Copyable
              title="In a clone of bench-bounty, after npx pnpm@12.4.2 install"
              command={verifyCommand({ rpcUrl: config.rpcUrl, indexerUrl: config.indexerUrl })}
            />
            <h2>Verification by this service</h2>
            {verificationError !== null ? (
              <p class="error" id="verification-missing">
                No stored verification: {verificationError}
              </p>
            ) : record !== null && report === null ? (
              <p id="verification-pending">
                Verification {record.state}
                {record.attempts ? ` (attempt ${record.attempts})` : ""}
                {record.last_error ? `: ${record.last_error}` : ""}.
              </p>
            ) : (
              record && report && <Report record={record} report={report} />
            )}
          </>
        )}
      </Loaded>
    </section>
  );
}
