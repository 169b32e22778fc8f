/** Minimal types of `pg` (node-postgres) for the sync-store guard and the SQL test harness; `@types/pg` is not installed. */
declare module "pg" {
  export class Client {
    constructor(config: { connectionString: string });
    connect(): Promise<void>;
    query(sql: string, params?: unknown[]): Promise<{ rows: Record<string, unknown>[] }>;
    end(): Promise<void>;
  }
  export class Pool {
    constructor(config: { connectionString: string; options?: string; max?: number });
    connect(): Promise<Client & { release(error?: Error): void }>;
    end(): Promise<void>;
  }
  /** node-postgres's type parsers by oid (`text` format). */
  export const types: { getTypeParser(oid: number, format?: "text" | "binary"): (text: string) => unknown };
  const pg: { Client: typeof Client; Pool: typeof Pool; types: typeof types };
  export default pg;
}
