// Issue 13, finding 9, end to end: the CLI given a --store URL whose password holds / : @ # ? or %40 never prints
// the password, whether it refuses the URL or cannot reach the server (nothing listens on port 1).
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.ts';

const SECRET = 'sEcReT';

describe('the CLI with a --store password that is hard to redact', () => {
  it.each([
    [`pa/${SECRET}`, /user name or password holding \/ \? or # must be percent-encoded/],
    [`pa#${SECRET}`, /user name or password holding \/ \? or # must be percent-encoded/],
    [`pa?${SECRET}`, /user name or password holding \/ \? or # must be percent-encoded/],
    [`pa@${SECRET}`, /cannot connect to PostgreSQL at 127\.0\.0\.1:1\/db: .*ECONNREFUSED/],
    [`pa:${SECRET}`, /cannot connect to PostgreSQL at 127\.0\.0\.1:1\/db: .*ECONNREFUSED/],
    [`pa%40${SECRET}`, /cannot connect to PostgreSQL at 127\.0\.0\.1:1\/db: .*ECONNREFUSED/],
  ])('password %s', async (password, message) => {
    const run = await runCli(['--store', `postgres://u:${password}@127.0.0.1:1/db`, 'http://127.0.0.1:9/']);
    expect(run.stderr + run.stdout).not.toContain(SECRET);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(message);
  });
});
