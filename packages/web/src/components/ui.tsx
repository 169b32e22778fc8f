/**
 * Small shared pieces: async loading, error text, copyable commands, explorer links.
 *
 * @packageDocumentation
 */
import type { ComponentChildren } from "preact";
import { useEffect, useMemo, useState } from "preact/hooks";
import { ApiError } from "../api/client.js";

/** State of one async read. */
export type Load<T> =
  | { status: "loading" }
  | { status: "ok"; value: T }
  | { status: "error"; error: unknown };

/**
 * Runs `fn` whenever `deps` change; the result of a superseded call is dropped. The read starts
 * while rendering, not in an effect (which runs only after the first paint): a cold load's API
 * requests leave with the first render.
 */
export function useLoad<T>(fn: () => Promise<T>, deps: unknown[]): Load<T> {
  const promise = useMemo(() => {
    const p = fn();
    p.catch(() => undefined); // handled below; this only keeps it from counting as unhandled meanwhile
    return p;
  }, deps);
  const [settled, setSettled] = useState<{ promise: Promise<T>; load: Load<T> } | null>(null);
  useEffect(() => {
    let live = true;
    promise.then(
      (value) => live && setSettled({ promise, load: { status: "ok", value } }),
      (error: unknown) => live && setSettled({ promise, load: { status: "error", error } }),
    );
    return () => {
      live = false;
    };
  }, [promise]);
  return settled !== null && settled.promise === promise ? settled.load : { status: "loading" };
}

/** The message of an error, with the API's code and SPEC 8 reason when it gave them. */
export function errorText(e: unknown): string {
  if (e instanceof ApiError)
    return `${e.message} (${e.reason ?? e.code}${e.status ? `, http ${e.status}` : ""})`;
  return e instanceof Error ? e.message : String(e);
}

/** Renders a load: a spinner line, an error paragraph, or `children(value)`. */
export function Loaded<T>(props: { load: Load<T>; what: string; children: (v: T) => ComponentChildren }) {
  const { load } = props;
  if (load.status === "loading") return <p class="muted">Loading {props.what}...</p>;
  if (load.status === "error")
    return (
      <p class="error" role="alert">
        Could not load {props.what}: {errorText(load.error)}
      </p>
    );
  return <>{props.children(load.value)}</>;
}

/** A command in a code block with a copy button. */
export function Copyable(props: { title?: string; command: string }) {
  const [copied, setCopied] = useState(false);
  const copy = () => {
    navigator.clipboard?.writeText(props.command).then(
      () => {
        setCopied(true);
        setTimeout(() => setCopied(false), 1500);
      },
      () => setCopied(false),
    );
  };
  return (
    <div class="cmd">
      {props.title && <div class="cmd-title">{props.title}</div>}
      <pre>
        <code>{props.command}</code>
      </pre>
      <button type="button" onClick={copy} aria-label={`Copy: ${props.title ?? "command"}`}>
        {copied ? "Copied" : "Copy"}
      </button>
    </div>
  );
}

/** A hash shortened for tables (`0x1234...abcd`), full text in the title. */
export function Short(props: { value: string }) {
  const v = props.value;
  return <code title={v}>{v.length > 14 ? `${v.slice(0, 8)}...${v.slice(-4)}` : v}</code>;
}

/** An explorer link when there is an explorer, else the bare value. */
export function MaybeLink(props: { url: string | null; value: string; short?: boolean }) {
  const text = props.short ? <Short value={props.value} /> : <code>{props.value}</code>;
  return props.url ? (
    <a href={props.url} target="_blank" rel="noopener noreferrer">
      {text}
    </a>
  ) : (
    text
  );
}

/** Offers bytes as a file download: the exact bytes, through a Blob (works cross-origin). */
export function Download(props: { bytes: Uint8Array; filename: string; label: string; testId: string }) {
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    const u = URL.createObjectURL(
      new Blob([props.bytes as Uint8Array<ArrayBuffer>], { type: "application/json" }),
    );
    setUrl(u);
    return () => URL.revokeObjectURL(u);
  }, [props.bytes]);
  return url === null ? null : (
    <a class="button" href={url} download={props.filename} data-testid={props.testId}>
      {props.label} ({props.bytes.length} bytes)
    </a>
  );
}
