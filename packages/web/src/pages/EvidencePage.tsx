/**
 * The evidence: the pack and the verification report as their exact bytes, the command to verify
 * locally, and every SPEC 9 fact as its own label with its own state and reasons, plus the policy
 * name and version, the verifier version and when it ran. Never one combined badge.
 */
import { useApp } from "../context.js";
import { Copyable, Download, Loaded, errorText, useLoad } from "../components/ui.js";
import { BenchmarkNav } from "../components/nav.js";
import { FACT_STATES, STATE_MEANING, factViews, type FactView } from "../domain/facts.js";
import { VERIFY_SETUP, verifyCommand } from "../domain/commands.js";
import type { Api } from "../api/client.js";
import type { VerificationRecord } from "../api/types.js";

/**
 * The pack and the stored verification, read at once. The verification carries the stored report's
 * facts, so the page renders without waiting for the report itself; the report's bytes (for the
 * download) are read after the first render.
 */
async function loadEvidence(api: Api, slug: string) {
  const [pack, verification] = await Promise.all([
    api.packBytes(slug),
    api.verification(slug).then(
      (record) => ({ record, error: null }),
      (e: unknown) => ({ record: null, error: errorText(e) }),
    ),
  ]);
  return {
    pack,
    record: verification.record as VerificationRecord | null,
    verificationError: verification.error,
  };
}

/** The report download (its exact bytes), once they are read. */
function ReportDownload(props: { slug: string; record: VerificationRecord }) {
  const { api } = useApp();
  const load = useLoad(() => api.reportBytes(props.slug, props.record), [api, props.slug, props.record]);
  if (load.status === "loading") return <span class="muted">reading the verification report...</span>;
  if (load.status === "error")
    return <span class="error">The verification report cannot be read: {errorText(load.error)}</span>;
  return (
    <Download
      bytes={load.value}
      filename="verification-report.json"
      label="Download the verification report"
      testId="download-report"
    />
  );
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

/** The verifier's package (the report's `verifier.name`). */
const VERIFIER_NAME = "@bench-bounty/verifier";

function Report(props: { record: VerificationRecord & { facts: NonNullable<VerificationRecord["facts"]> } }) {
  const { record } = props;
  const facts = factViews(record.facts);
  const unmet = record.policy_unmet ?? [];
  return (
    <>
      <dl class="facts" id="verification-meta">
        <dt>Policy</dt>
        <dd data-field="policy">
          {record.policy} version {record.policy_version ?? "(not stated)"}
        </dd>
        <dt>Policy outcome</dt>
        <dd data-field="policy-outcome">
          {record.policy_met
            ? `the ${record.policy} policy is met`
            : `the ${record.policy} policy is not met (${unmet.join(", ")})`}
          <span class="muted"> (a named policy over the facts below, not a fact)</span>
        </dd>
        <dt>Verifier</dt>
        <dd data-field="verifier">
          {VERIFIER_NAME} {record.verifier_version ?? "(not stated)"}
        </dd>
        <dt>Ran at</dt>
        <dd data-field="ran-at">{record.ran_at ?? "(not stated)"}</dd>
        {record.state !== "done" && (
          <>
            <dt>Since then</dt>
            <dd data-field="job-state">
              {record.state === "failed" ? "a new verification failed" : `verifying again (${record.state})`}
              {record.last_error ? `: ${record.last_error}` : ""}; the facts below are the last stored
              report's
            </dd>
          </>
        )}
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
        {({ pack, record, verificationError }) => (
          <>
            <p class="downloads">
              <Download
                bytes={pack}
                filename="pack.json"
                label="Download the evidence pack"
                testId="download-pack"
              />{" "}
              {record?.report_url && <ReportDownload slug={props.slug} record={record} />}
            </p>
            <p>
              The pack is also at <a href={api.packUrl(props.slug)}>{api.packUrl(props.slug)}</a>. Verify it
              yourself, trusting nothing of this site:
            </p>
            <Copyable
              title={`In a clone of bench-bounty, after ${VERIFY_SETUP}`}
              command={verifyCommand({ rpcUrl: config.rpcUrl, indexerUrl: config.indexerUrl })}
            />
            <h2>Verification by this service</h2>
            {verificationError !== null ? (
              <p class="error" id="verification-missing">
                No stored verification: {verificationError}
              </p>
            ) : record !== null && record.facts ? (
              <Report record={{ ...record, facts: record.facts }} />
            ) : (
              record && (
                <p id="verification-pending">
                  Verification {record.state}
                  {record.attempts ? ` (attempt ${record.attempts})` : ""}
                  {record.last_error ? `: ${record.last_error}` : ""}.
                </p>
              )
            )}
          </>
        )}
      </Loaded>
    </section>
  );
}
