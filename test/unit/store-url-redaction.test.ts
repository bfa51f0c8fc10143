// Issue 13, finding 9: a store URL's password never appears in a message, however it is written. Redaction is
// textual (everything between "://" and the last "@"), since a URL parser ends the password at "/", "?" or "#".
import { describe, expect, it } from 'vitest';
import { parseStoreUrl, redact, redactStoreUrls, serverLabel, StoreError } from '../../electron/engine/frontier/postgres/pg-store-url.ts';

const SECRET = 'sEcReT';
// Passwords around SECRET with each character that confused the old redaction, and an encoded "@".
const PASSWORDS = [
  `pa/${SECRET}`,
  `${SECRET}@x`,
  `pa:${SECRET}`,
  `pa#${SECRET}`,
  `pa?${SECRET}`,
  `pa%40${SECRET}`,
  `a/b@c:d#${SECRET}?e`,
  SECRET,
];
const urls = (password: string) => [
  `postgres://u:${password}@127.0.0.1:1/db`,
  `postgresql://user:${password}@db.example:5433/trawl?sslmode=require`,
  `postgres://u:${password}@127.0.0.1/db`,
  // Not a URL at all: still no password.
  `u:${password}@127.0.0.1/db`,
  `postgres:/u:${password}@127.0.0.1/db`,
  `postgres://u:${password} @127.0.0.1/db`,
  `mysql://u:${password}@127.0.0.1/db`,
];

function messageOf(work: () => unknown): string {
  try {
    work();
    return '';
  } catch (err) {
    return (err as Error).message;
  }
}

describe('store URL redaction', () => {
  it('hides everything between :// and the last @, for every tricky password', () => {
    for (const password of PASSWORDS) {
      expect(redact(`postgres://u:${password}@127.0.0.1:1/db`)).toBe('postgres://***@127.0.0.1:1/db');
      for (const url of urls(password)) {
        expect(redact(url), url).not.toContain(SECRET);
        expect(serverLabel(url), url).not.toContain(SECRET);
        expect(
          messageOf(() => parseStoreUrl(url)),
          url,
        ).not.toContain(SECRET);
      }
    }
    expect(redact('postgres://u:pa/ss@127.0.0.1:1/db')).toBe('postgres://***@127.0.0.1:1/db');
    expect(redact('postgres://127.0.0.1:5432/db')).toBe('postgres://127.0.0.1:5432/db');
    expect(redact('u:secret@127.0.0.1/db')).toBe('***@127.0.0.1/db');
  });

  it('labels the server after the credentials', () => {
    expect(serverLabel('postgres://u:pa/ss@127.0.0.1:1/db')).toBe('127.0.0.1:1/db');
    expect(serverLabel('postgres://u:p@ss@db.example/trawl')).toBe('db.example:5432/trawl');
    expect(serverLabel('postgres://u:1234/x@127.0.0.1:1/db')).toBe('127.0.0.1:1/db');
  });

  it('refuses a password with an unencoded / ? or #, which would reach another server, and says how to write it', () => {
    // The URL parser reads "u:1234" as host and port here: the crawl would go to host "u".
    for (const url of ['postgres://u:1234/x@127.0.0.1:1/db', 'postgres://u:pa/ss@127.0.0.1:1/db', 'postgres://u:pa#ss@127.0.0.1:1/db']) {
      expect(() => parseStoreUrl(url)).toThrow(StoreError);
      expect(messageOf(() => parseStoreUrl(url))).toMatch(
        /must be percent-encoded \(%2F %3F %23\) \(got "postgres:\/\/\*\*\*@127\.0\.0\.1:1\/db"\)/,
      );
    }
    // Encoded, or with "@" and ":" (which a URL takes as they are), it is accepted as given.
    for (const url of ['postgres://u:pa%2Fss@127.0.0.1:1/db', 'postgres://u:p@ss@127.0.0.1:1/db', 'postgres://u:p:ss@127.0.0.1:1/db']) {
      expect(parseStoreUrl(url)).toBe(url);
    }
  });

  it('redacts store URLs quoted anywhere in a message', () => {
    for (const password of PASSWORDS) {
      const text = `Error: connect to postgres://u:${password}@127.0.0.1:1/db failed\n    at postgresql://x:${password}@h/d (file.ts:1)`;
      expect(redactStoreUrls(text), password).not.toContain(SECRET);
      expect(redactStoreUrls(text)).toContain('postgres://***@127.0.0.1:1/db failed');
    }
  });
});
