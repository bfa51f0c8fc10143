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
  if (/[/?#]/.test(userinfoOf(value) ?? '')) {
    // A password with an unencoded / ? or # is read as part of the host, path or query: the URL would reach
    // another server (or none), and the rest of the password would be shown as if it were the database.
    throw new StoreError(
      `--store URL: a user name or password holding / ? or # must be percent-encoded (%2F %3F %23) (got "${redact(value)}")`,
    );
  }
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

/**
 * Where the credentials start and end in `value`: between "://" (or the start, without one) and the last "@", or
 * null without an "@" there. The last "@", not the first: a password may hold "@", "/", ":", "#" or "?".
 */
function credentialsIn(value: string): { start: number; end: number } | null {
  const scheme = value.indexOf('://');
  const start = scheme < 0 ? 0 : scheme + 3;
  const end = value.lastIndexOf('@');
  return end >= start ? { start, end } : null;
}

function userinfoOf(value: string): string | null {
  const at = credentialsIn(value);
  return at && value.slice(at.start, at.end);
}

/**
 * The URL with its user name and password replaced (everything between "://" and the last "@"), for messages and
 * logs. Textual on purpose: a URL parser stops the credentials at the first "/", "?" or "#", and a password
 * holding one would be shown whole.
 */
export function redact(value: string): string {
  const at = credentialsIn(value);
  return at ? `${value.slice(0, at.start)}***${value.slice(at.end)}` : value;
}

/** "host:port/database", for messages: what follows the credentials, never the credentials themselves. */
export function serverLabel(storeUrl: string): string {
  const redacted = redact(storeUrl);
  try {
    const url = new URL(redacted);
    return `${url.hostname}:${url.port || '5432'}${url.pathname}`;
  } catch {
    return redacted;
  }
}

/**
 * `text` with the credentials of every postgres:// or postgresql:// URL in it redacted (up to the last "@" before
 * the next white space), for messages that may quote one without knowing it: a last-resort error, say.
 */
export function redactStoreUrls(text: string): string {
  return text.replace(/(postgres(?:ql)?:\/\/)\S*@/gi, '$1***@');
}
