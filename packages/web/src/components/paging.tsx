/**
 * "Load more" over a paged API read (the benchmarks list, the leaderboard): the pages loaded so far,
 * the first given, one more read per click from the last page's `next_offset` (probe16 A-F9, probe19
 * A-F4). One mechanism for every paged page of the app.
 *
 * @packageDocumentation
 */
import { useState } from "preact/hooks";
import { errorText } from "./ui.js";

/** A page of a paged read: what it carries, and the offset of the next page (null: none). */
export interface Paged {
  next_offset: number | null;
}

/** The pages loaded so far and the state of the read of the next one. */
export interface Pages<P extends Paged> {
  /** Every page loaded, in order: the first, then one per completed "Load more". */
  pages: P[];
  /** Offset of the next page, null when every page is loaded. */
  next: number | null;
  /** A read of the next page is under way. */
  busy: boolean;
  /** Why the last read of the next page failed (the pages loaded stay), else null. */
  error: string | null;
  /** Reads the next page and appends it (nothing when all are loaded or a read is under way). */
  loadMore: () => void;
}

/**
 * The pages of a paged read, from `first`; `read(offset)` reads the page at `offset`. A page whose
 * read fails is not appended (the error is kept for the page to show; a click reads it again).
 */
export function usePages<P extends Paged>(first: P, read: (offset: number) => Promise<P>): Pages<P> {
  const [pages, setPages] = useState<P[]>([first]);
  const [state, setState] = useState<{ busy: boolean; error: string | null }>({ busy: false, error: null });
  const next = pages[pages.length - 1]!.next_offset;
  const loadMore = (): void => {
    if (next === null || state.busy) return;
    setState({ busy: true, error: null });
    read(next).then(
      (page) => {
        setPages((p) => [...p, page]);
        setState({ busy: false, error: null });
      },
      (e: unknown) => setState({ busy: false, error: errorText(e) }),
    );
  };
  return { pages, next, busy: state.busy, error: state.error, loadMore };
}

/**
 * The "Load more" button, shown while a next page exists (`id` is the element id, `what` names the
 * items: "benchmarks", "rows"), and why the last read failed.
 */
export function LoadMore<P extends Paged>(props: { pages: Pages<P>; id: string; what: string }) {
  const { pages } = props;
  return (
    <>
      {pages.next !== null && (
        <p>
          <button id={props.id} type="button" disabled={pages.busy} onClick={pages.loadMore}>
            {pages.busy ? "Loading..." : `Load more ${props.what}`}
          </button>
        </p>
      )}
      {pages.error !== null && (
        <p class="error">
          More {props.what} could not be read: {pages.error}
        </p>
      )}
    </>
  );
}
