// One connection to the PostgreSQL store that runs the reads given to it one after another: a read's snapshot is a
// transaction, which two reads at once on one connection would mix. Opened when first asked; a lost connection is
// dropped (the next read opens another) and named in the error.
//
// A crawl's views (cluster-results.ts) keep two: one for the reads that answer a page at a time, one for those that
// read the whole crawl (the explorer's counts, the site structure's first fold, the crawl map: seconds at a million
// URLs), so that a page asked beside them is not queued behind them.
import { connect, isConnectionLost, type PgClient } from '../frontier/postgres/pg-client.ts';
import { StoreError, serverLabel } from '../frontier/postgres/pg-store-url.ts';
import { withTimeout } from './with-timeout.ts';

/** How long opening the connection may take before the view reports the store unreachable. */
const CONNECT_TIMEOUT_MS = 5_000;

export class SerialConnection {
  private client: PgClient | null = null;
  private opening: Promise<PgClient> | null = null;
  private closed = false;
  /** The reads asked for so far, chained. */
  private reads: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly storeUrl: string,
    /** The name PostgreSQL shows for the connection (pg_stat_activity.application_name). */
    private readonly applicationName: string,
    /** Statements run once on each connection opened, before its first read (session settings). */
    private readonly setup: string | null = null,
  ) {}

  /** Runs `work` on the connection once the reads asked before it are done. */
  read<T>(work: (client: PgClient) => Promise<T>): Promise<T> {
    const run = this.reads.then(() => this.readNow(work));
    this.reads = run.catch(() => undefined);
    return run;
  }

  async close(): Promise<void> {
    this.closed = true;
    const client = this.client;
    this.client = null;
    if (client) await withTimeout(client.end(), 2_000).catch(() => undefined);
  }

  private async readNow<T>(work: (client: PgClient) => Promise<T>): Promise<T> {
    const client = await this.connection();
    try {
      return await work(client);
    } catch (err) {
      if (!isConnectionLost(err)) throw err;
      if (this.client === client) this.client = null;
      void client.end().catch(() => undefined);
      throw new StoreError(`lost the connection to the PostgreSQL store at ${serverLabel(this.storeUrl)}; the results come back with it`);
    }
  }

  private async connection(): Promise<PgClient> {
    if (this.closed) throw new StoreError('no longer attached to the crawl');
    if (this.client) return this.client;
    this.opening ??= (async () => {
      try {
        const client = await connect(this.storeUrl, { connectTimeoutMs: CONNECT_TIMEOUT_MS, applicationName: this.applicationName });
        if (this.closed) {
          await client.end().catch(() => undefined);
          throw new StoreError('no longer attached to the crawl');
        }
        if (this.setup !== null) {
          try {
            await client.query(this.setup);
          } catch (err) {
            await client.end().catch(() => undefined);
            throw err;
          }
        }
        const drop = () => {
          if (this.client === client) this.client = null;
        };
        client.on('end', drop);
        client.on('error', drop);
        this.client = client;
        return client;
      } finally {
        this.opening = null;
      }
    })();
    return this.opening;
  }
}
