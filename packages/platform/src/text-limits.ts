/**
 * Length bounds of the free text an author gives and the lists serve (probe16 A-F11: a 60,000-character
 * title rode in every item of a 1,000-row page of `GET /benchmarks`). Checked when the text comes in
 * (publish, upload; REST, MCP and the CLI alike); rows stored before the bounds stay readable.
 */

/** The most characters (Unicode code points, after trimming where the field is trimmed) of each field. */
export const TEXT_LIMITS = {
  /** A benchmark's `title` (publish options). */
  title: 200,
  /** A dataset's `name` (what `GET /datasets/formats` said before the bound was kept: 1-128). */
  name: 128,
  /** A dataset's `description`. */
  description: 2000,
  /** A dataset's `label_policy`. */
  label_policy: 2000,
} as const;

/** A field bounded by {@link TEXT_LIMITS}. */
export type BoundedTextField = keyof typeof TEXT_LIMITS;

/**
 * Why `text` is too long for `field`, or null when it fits ({@link TEXT_LIMITS}, counted in code points).
 * @returns `{message, max}`: a message naming the field, its length and the bound
 */
export function textTooLong(field: BoundedTextField, text: string): { message: string; max: number } | null {
  const max = TEXT_LIMITS[field];
  if (text.length <= max) return null; // at most `max` UTF-16 units: at most `max` code points
  const chars = [...text].length;
  if (chars <= max) return null;
  return { message: `${field} has ${chars} characters; at most ${max} (TEXT_LIMITS.${field})`, max };
}
