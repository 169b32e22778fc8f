/** Types of `full-run.mjs`. */
/** Server-thread CPU µs per request, by phase (one agent only). */
export type Phases = Record<"start" | "submit" | "finalize", number[]>;
export function post(url: string, key: string | null, body?: unknown): Promise<any>;
export function serverThreadCpuNs(): number | null;
export function serverThreadSched(): { onCpuNs: number; waitNs: number } | null;
export function fullRun(u: string, slug: string, key: string, phases?: Phases): Promise<number>;
export function playUntil(
  u: string,
  slug: string,
  keys: string[],
  until: number,
): Promise<{ lat: number[]; phases?: Phases }>;
