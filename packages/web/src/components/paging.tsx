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
  /**
   * The list moved between two reads (`sameList` said so): the pages shown were read again from its
   * first page, which the page should say; false once a next page is appended.
   */
  restarted: boolean;
  /** Reads the next page and appends it (nothing when all are loaded or a read is under way). */
  loadMore: () => void;
}

/**
 * The pages of a paged read, from `first`; `read(offset)` reads the page at `offset`. A page whose
 * read fails is not appended (the error is kept for the page to show; a click reads it again). With
 * `sameList(first, next)`, a next page is appended only when it says both pages are of the same list
 * (the leaderboard's `board_version`); else the list is read again from offset 0 and replaces the
 * pages shown (`restarted`), so no page of another list is appended (probe21 A-F6: after a finalize
 * between two reads an agent showed twice and the new one nowhere).
 */
export function usePages<P extends Paged>(
  first: P,
  read: (offset: number) => Promise<P>,
  sameList?: (first: P, next: P) => boolean,
): Pages<P> {
  const [pages, setPages] = useState<P[]>([first]);
  const [state, setState] = useState<{ busy: boolean; error: string | null; restarted: boolean }>({
    busy: false,
    error: null,
    restarted: false,
  });
  const next = pages[pages.length - 1]!.next_offset;
  const loadMore = (): void => {
    if (next === null || state.busy) return;
    setState({ ...state, busy: true, error: null });
    const readNext = async (): Promise<{ pages: P[]; restarted: boolean }> => {
      const page = await read(next);
      if (sameList === undefined || sameList(pages[0]!, page))
        return { pages: [...pages, page], restarted: false };
      return { pages: [await read(0)], restarted: true };
    };
    readNext().then(
      (r) => {
        setPages(r.pages);
        setState({ busy: false, error: null, restarted: r.restarted });
      },
      (e: unknown) => setState({ ...state, busy: false, error: errorText(e) }),
    );
  };
  return { pages, next, busy: state.busy, error: state.error, restarted: state.restarted, loadMore };
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
