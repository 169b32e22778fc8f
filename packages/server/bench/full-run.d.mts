/** Types of `full-run.mjs`. */
export function post(url: string, key: string | null, body?: unknown): Promise<any>;
export function fullRun(u: string, slug: string, key: string): Promise<number>;
export function playUntil(u: string, slug: string, keys: string[], until: number): Promise<number[]>;
