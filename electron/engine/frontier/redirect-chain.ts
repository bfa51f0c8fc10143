// Whether a redirect is followed, decided the same way by both stores: not past MAX_REDIRECT_HOPS in one chain,
// and not back to a URL of its own chain. The chain is walked back through the URLs that redirected here, one
// urls row at a time (at most MAX_REDIRECT_HOPS rows); the SQLite store reads each row synchronously, the
// PostgreSQL store over the network, so the walk is written once as steps and each store drives it its way.
import { MAX_REDIRECT_HOPS, type PageClaim } from './model.ts';

/** A urls row as the chain walk reads it: the URL, the URL that redirected to it, and its hop count. */
export interface ChainLink {
  url: string;
  via: number | null;
  hops: number;
}

/** 'follow', or why the chain is cut (recorded as the source's error). */
export type RedirectVerdict = 'follow' | string;

/** The walk: yields the id of the next urls row to read, is given that row (undefined: none), returns the verdict. */
function* verdictSteps(claim: PageClaim, target: string): Generator<number, RedirectVerdict, ChainLink | undefined> {
  if (claim.hops >= MAX_REDIRECT_HOPS) return `too many redirects (over ${MAX_REDIRECT_HOPS})`;
  let id: number | null = claim.urlId;
  for (let i = 0; id !== null && i <= MAX_REDIRECT_HOPS; i++) {
    const row: ChainLink | undefined = yield id;
    if (!row) break;
    if (row.url === target) return 'redirect loop';
    if (row.hops === 0) break;
    id = row.via;
  }
  return 'follow';
}

/** The verdict on a redirect to `target`, reading the chain's rows with `read`. */
export function redirectVerdict(claim: PageClaim, target: string, read: (urlId: number) => ChainLink | undefined): RedirectVerdict {
  const steps = verdictSteps(claim, target);
  for (let step = steps.next(); ; ) {
    if (step.done) return step.value;
    step = steps.next(read(step.value));
  }
}

/** As redirectVerdict, for a store whose rows are read asynchronously. */
export async function redirectVerdictAsync(
  claim: PageClaim,
  target: string,
  read: (urlId: number) => Promise<ChainLink | undefined>,
): Promise<RedirectVerdict> {
  const steps = verdictSteps(claim, target);
  for (let step = steps.next(); ; ) {
    if (step.done) return step.value;
    step = steps.next(await read(step.value));
  }
}
