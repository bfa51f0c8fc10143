// The cluster key's sealing of a crawl's credentials (secrets/cluster-key.ts): nothing in clear, opens with the key
// and the crawl it was sealed for only, refuses a changed value, and names the problem.
import { describe, expect, it } from 'vitest';
import { clusterKeyProblem, openWithClusterKey, sealWithClusterKey } from '../../electron/engine/secrets/cluster-key.ts';

const SECRETS = { headers: { Cookie: 'session=ck-5521-secret' }, basicAuth: { username: 'ana', password: 'hunter2-pw-7Q' } };
const KEY = 'cluster-key-7f3a9c0e5b1d2468';

describe('cluster key sealing', () => {
  it('seals with no credential in clear and opens with the same key and crawl only', () => {
    const sealed = sealWithClusterKey(SECRETS, KEY, 'c1');
    for (const s of ['hunter2', 'ck-5521', 'ana', 'Cookie']) expect(sealed).not.toContain(s);
    expect(openWithClusterKey(sealed, KEY, 'c1')).toEqual(SECRETS);
    // A fresh salt and IV each time.
    expect(sealWithClusterKey(SECRETS, KEY, 'c1')).not.toBe(sealed);
    expect(() => openWithClusterKey(sealed, `${KEY}x`, 'c1')).toThrow(/TRAWL_CLUSTER_KEY does not open the credentials of crawl "c1"/);
    // Copied into another crawl's row, it does not open.
    expect(() => openWithClusterKey(sealed, KEY, 'c2')).toThrow(/does not open/);
    // A changed byte is refused, not decrypted into something else.
    const record = JSON.parse(sealed) as { data: string };
    const data = Buffer.from(record.data, 'base64');
    data[0] = data[0]! ^ 1;
    expect(() => openWithClusterKey(JSON.stringify({ ...record, data: data.toString('base64') }), KEY, 'c1')).toThrow(/does not open/);
    // A cost outside what Trawl writes is refused before any work.
    expect(() => openWithClusterKey(JSON.stringify({ ...record, N: 2 ** 24 }), KEY, 'c1')).toThrow(/key cost/);
    expect(() => openWithClusterKey('not json', KEY, 'c1')).toThrow(/unreadable/);
  });

  it('refuses a short key', () => {
    expect(clusterKeyProblem('short')).toMatch(/at least 16 characters/);
    expect(clusterKeyProblem(KEY)).toBeNull();
    expect(() => sealWithClusterKey(SECRETS, 'short', 'c1')).toThrow(/at least 16/);
  });
});
