// A cluster crawl's credentials (basic authentication and custom headers, shared/credentials.ts) in the PostgreSQL
// store: every node needs them, and the database is shared, backed up and read by people who run no crawl, so the
// store keeps them only sealed, in the registry row's `secrets` column, apart from the settings. They are sealed with
// a key derived from the cluster key, a secret the operator gives every node in TRAWL_CLUSTER_KEY (never on the
// command line, where `ps` shows it): scrypt (salt per crawl) then AES-256-GCM, the crawl's ID as associated data
// (a sealed value copied to another crawl does not open). A node without the key, or with another one, is told so
// and does not start. Plain Node.
import crypto from 'node:crypto';
import type { CrawlSecrets } from '../../../shared/credentials.ts';

/** The environment variable each node reads the cluster key from. */
export const CLUSTER_KEY_ENV = 'TRAWL_CLUSTER_KEY';
export const CLUSTER_KEY_MIN_LENGTH = 16;

/** scrypt's cost: about 0.1 s and 32 MiB, once per node start. */
const SCRYPT = { N: 2 ** 15, r: 8, p: 1, maxmem: 64 * 1024 * 1024 } as const;
const VERSION = 1;

interface Sealed {
  v: number;
  kdf: 'scrypt';
  N: number;
  r: number;
  p: number;
  salt: string;
  iv: string;
  tag: string;
  data: string;
}

/** Why a cluster key is refused, or null. */
export function clusterKeyProblem(key: string): string | null {
  if (key.length < CLUSTER_KEY_MIN_LENGTH)
    return `${CLUSTER_KEY_ENV} must be at least ${CLUSTER_KEY_MIN_LENGTH} characters (e.g. the output of \`openssl rand -base64 32\`)`;
  return null;
}

function derive(key: string, salt: Buffer, cost: { N: number; r: number; p: number }): Buffer {
  return crypto.scryptSync(key, salt, 32, { ...cost, maxmem: SCRYPT.maxmem });
}

/** The crawl's secrets sealed with the cluster key, as the registry row keeps them. */
export function sealWithClusterKey(secrets: CrawlSecrets, key: string, crawlId: string): string {
  const problem = clusterKeyProblem(key);
  if (problem) throw new Error(problem);
  const salt = crypto.randomBytes(16);
  const iv = crypto.randomBytes(12);
  const cipher = crypto.createCipheriv('aes-256-gcm', derive(key, salt, SCRYPT), iv);
  cipher.setAAD(Buffer.from(crawlId, 'utf8'));
  const data = Buffer.concat([cipher.update(JSON.stringify(secrets), 'utf8'), cipher.final()]);
  const sealed: Sealed = {
    v: VERSION,
    kdf: 'scrypt',
    N: SCRYPT.N,
    r: SCRYPT.r,
    p: SCRYPT.p,
    salt: salt.toString('base64'),
    iv: iv.toString('base64'),
    tag: cipher.getAuthTag().toString('base64'),
    data: data.toString('base64'),
  };
  return JSON.stringify(sealed);
}

/** Thrown when the secrets cannot be opened with the key given: another key, or a damaged value. */
export class ClusterKeyError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ClusterKeyError';
  }
}

/** The secrets back from sealWithClusterKey's value; a ClusterKeyError when `key` is not the key they were sealed with. */
export function openWithClusterKey(value: string, key: string, crawlId: string): CrawlSecrets {
  let sealed: Sealed;
  try {
    sealed = JSON.parse(value) as Sealed;
  } catch {
    throw new ClusterKeyError(`crawl "${crawlId}" holds unreadable sealed credentials`);
  }
  if (sealed.v !== VERSION || sealed.kdf !== 'scrypt')
    throw new ClusterKeyError(`crawl "${crawlId}" has credentials sealed by another version of Trawl (use the same version on every node)`);
  // The cost is the stored one, within bounds (a value written by someone else must not make a node spend minutes).
  if (![2 ** 14, 2 ** 15, 2 ** 16, 2 ** 17].includes(sealed.N) || sealed.r !== 8 || sealed.p !== 1)
    throw new ClusterKeyError(`crawl "${crawlId}" holds sealed credentials with a key cost this Trawl does not use`);
  try {
    const decipher = crypto.createDecipheriv(
      'aes-256-gcm',
      derive(key, Buffer.from(sealed.salt, 'base64'), sealed),
      Buffer.from(sealed.iv, 'base64'),
    );
    decipher.setAAD(Buffer.from(crawlId, 'utf8'));
    decipher.setAuthTag(Buffer.from(sealed.tag, 'base64'));
    const text = Buffer.concat([decipher.update(Buffer.from(sealed.data, 'base64')), decipher.final()]).toString('utf8');
    return JSON.parse(text) as CrawlSecrets;
  } catch {
    throw new ClusterKeyError(
      `${CLUSTER_KEY_ENV} does not open the credentials of crawl "${crawlId}": it is not the key the crawl was created with`,
    );
  }
}
