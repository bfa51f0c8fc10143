// A connection to the PostgreSQL store that reconnects: it outlives the server going away. A query or transaction
// that fails because the connection broke waits, reconnects (backing off up to a few seconds) and runs again, for as
// long as it takes. Nothing handed to it is dropped. Transactions that hit a deadlock with another node are run
// again too. Callers write transactions so that running one twice is harmless (see PgFrontierStore: a result whose
// lease is no longer the node's is not recorded again). Each connection it makes is a plain one from pg-client.ts.
import crypto from 'node:crypto';
import { EventEmitter } from 'node:events';
import type pg from 'pg';
import { connect, isConnectionLost, isRetryableTransaction, type PgQuerier } from './pg-client.ts';
import { serverLabel } from './pg-store-url.ts';

const BACKOFF_MS = [100, 250, 500, 1000, 2000, 4000];

/** Statement names by text: the store's statements are a fixed set (per crawl schema), so this stays small. */
const names = new Map<string, string>();

/**
 * The client's queries as named prepared statements: PostgreSQL plans each statement once per connection instead
 * of at every call. Planning was most of the server's CPU per recorded page (1-2 ms a query, ten queries a page).
 * Statements with parameters only (those are single statements; a script of several cannot be prepared).
 */
function preparing(client: pg.Client): PgQuerier {
  const query = (text: unknown, values?: unknown) => {
    if (typeof text !== 'string' || values === undefined) return (client.query as (t: unknown, v?: unknown) => unknown)(text, values);
    let name = names.get(text);
    if (name === undefined) names.set(text, (name = `trawl_${crypto.createHash('sha1').update(text).digest('hex').slice(0, 20)}`));
    return client.query({ name, text, values: values as unknown[] });
  };
  return { query } as PgQuerier;
}

/** Shared by a node's connections: the store is reachable or not, said once however many connections notice. */
export class StoreAvailability extends EventEmitter<{ unavailable: [{ error: string }]; available: [] }> {
  private down: string | null = null;

  lost(error: string): void {
    if (this.down !== null) return;
    this.down = error;
    this.emit('unavailable', { error });
  }

  back(): void {
    if (this.down === null) return;
    this.down = null;
    this.emit('available');
  }

  get unavailable(): boolean {
    return this.down !== null;
  }
}

export class PgConnection {
  private client: pg.Client | null = null;
  private connecting: Promise<pg.Client> | null = null;
  private closed = false;
  /** Run after every (re)connection, e.g. LISTEN. */
  onConnect: ((client: pg.Client) => Promise<void>) | null = null;

  constructor(
    private readonly url: string,
    private readonly name: string,
    private readonly availability: StoreAvailability,
  ) {}

  /** Connects now, failing with a StoreError that says why (used once at start, where failing is right). */
  async open(): Promise<void> {
    this.client = await connect(this.url, { applicationName: this.name });
    if (this.onConnect) await this.onConnect(this.client);
  }

  get isClosed(): boolean {
    return this.closed;
  }

  /** The live client, reconnecting (with backoff, for as long as it takes) when the last one broke. */
  private async live(): Promise<pg.Client> {
    if (this.client) return this.client;
    if (!this.connecting) {
      this.connecting = (async () => {
        for (let attempt = 0; ; attempt++) {
          if (this.closed) throw new Error(`connection to ${serverLabel(this.url)} closed`);
          try {
            const client = await connect(this.url, { applicationName: this.name, connectTimeoutMs: 5000 });
            if (this.onConnect) await this.onConnect(client);
            this.client = client;
            this.availability.back();
            return client;
          } catch (err) {
            this.availability.lost((err as Error).message);
            await sleep(BACKOFF_MS[Math.min(attempt, BACKOFF_MS.length - 1)]!);
          }
        }
      })().finally(() => (this.connecting = null));
    }
    return this.connecting;
  }

  private broke(client: pg.Client, err: unknown): void {
    if (this.client === client) this.client = null;
    void client.end().catch(() => undefined);
    this.availability.lost(err instanceof Error ? err.message : String(err));
  }

  /** Runs `work` with the client; on a broken connection, reconnects and runs it again. */
  async run<T>(work: (client: PgQuerier) => Promise<T>): Promise<T> {
    for (let deadlocks = 0; ; ) {
      const client = await this.live();
      try {
        return await work(preparing(client));
      } catch (err) {
        if (isConnectionLost(err) && !this.closed) {
          this.broke(client, err);
          continue;
        }
        if (isRetryableTransaction(err) && deadlocks++ < 20) {
          await sleep(Math.random() * 20 * deadlocks);
          continue;
        }
        throw err;
      }
    }
  }

  /** Runs `work` in a transaction (BEGIN ... COMMIT), again from the start after a broken connection or a deadlock. */
  transaction<T>(work: (client: PgQuerier) => Promise<T>): Promise<T> {
    return this.run(async (client) => {
      await client.query('BEGIN');
      try {
        const out = await work(client);
        await client.query('COMMIT');
        return out;
      } catch (err) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw err;
      }
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    const client = this.client;
    this.client = null;
    if (client) await client.end().catch(() => undefined);
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
