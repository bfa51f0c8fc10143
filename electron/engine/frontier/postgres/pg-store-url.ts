// The --store URL of the PostgreSQL store: checked before anything is tried, and shown in messages with the server
// named and the password never.

/** A store URL or connection that cannot be used: the message says which and why. */
export class StoreError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'StoreError';
  }
}

/** Checks a --store value; returns it when it is a PostgreSQL URL this store can use. */
export function parseStoreUrl(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new StoreError(`--store must be a PostgreSQL URL such as postgres://user:password@host:5432/database (got "${redact(value)}")`);
  }
  if (url.protocol !== 'postgres:' && url.protocol !== 'postgresql:') {
    throw new StoreError(`--store must be a postgres:// or postgresql:// URL (got a ${url.protocol.replace(/:$/, '')}: URL)`);
  }
  if (!url.hostname) throw new StoreError(`--store URL names no host: "${redact(value)}"`);
  if (url.pathname.replace(/^\//, '') === '')
    throw new StoreError(`--store URL names no database (add /DATABASE after the host): "${redact(value)}"`);
  if (url.port && !(Number(url.port) > 0 && Number(url.port) < 65536)) throw new StoreError(`--store URL has an invalid port ${url.port}`);
  return value;
}

/** The URL with its password replaced, for messages and logs. */
export function redact(value: string): string {
  try {
    const url = new URL(value);
    if (url.password) url.password = '***';
    return url.toString();
  } catch {
    return value.replace(/:[^:@/]*@/, ':***@');
  }
}

/** "host:port/database", for messages. */
export function serverLabel(storeUrl: string): string {
  try {
    const url = new URL(storeUrl);
    return `${url.hostname}:${url.port || '5432'}${url.pathname}`;
  } catch {
    return redact(storeUrl);
  }
}
