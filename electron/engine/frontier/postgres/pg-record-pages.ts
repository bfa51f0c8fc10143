// Recording a batch of fetched pages in the PostgreSQL store: one transaction, one statement per table for the whole
// batch rather than per page (a node's round trips to the server were what bounded it). Each page is decided as the
// SQLite frontier decides one (retry-policy.ts, page-outcome.ts, politeness.ts); a result is recorded only while
// this node's lease on its URL holds, or the URL went back to the queue unclaimed (otherwise it is 'lost').
import type { CrawlSettings } from '../../../../shared/settings.ts';
import type { PageFetchResult } from '../../../../shared/protocol.ts';
import { UrlState, type PageClaim } from '../model.ts';
import {
  contentRowOf,
  hostCountsOf,
  hreflangRowsOf,
  renderRowOf,
  resultRowOf,
  securityRowOf,
  type PageTarget,
  type ResultRow,
} from '../page-outcome.ts';
import { retryDelayMs } from '../retry-policy.ts';
import { socialTagRowsOf, structuredDataRowsOf, type SocialTagRow, type StructuredDataRow } from '../structured-rows.ts';
import { nextFetchAfter } from '../politeness.ts';
import type { PageRecord, RecordOutcome } from '../frontier-store.ts';
import type { PgQuerier } from './pg-client.ts';
import type { Enqueue } from './pg-discover.ts';
import {
  emptyHostDelta,
  insertContent,
  insertExtracted,
  insertImageUses,
  type ImageUseRow,
  insertHreflang,
  insertSecurity,
  insertLinks,
  insertRenders,
  insertResults,
  insertSocialTags,
  insertStructuredData,
  insertUnfetchable,
  updateHosts,
  type HostDelta,
  type LinkRow,
  WriteGroup,
} from './pg-writes.ts';

/** Where a fetched page leads: the verdict on its redirect, its targets, and those as URLs to discover. */
export interface PagePlan {
  redirect: string | null;
  targets: PageTarget[];
  found: Enqueue[];
}

/** A batch to record, with what the store decided before the transaction and what it lends the recording. */
export interface RecordBatch {
  items: readonly PageRecord[];
  /** Where each page leads, by index in items (planned before the transaction; not pages foreseen as retried). */
  planned: ReadonlyMap<number, PagePlan>;
  /** Ids of the URLs the planned pages lead to, discovered before the transaction. */
  discovered: ReadonlyMap<string, number>;
  node: string;
  settings: CrawlSettings;
  /** The database's clock for an epoch ms of this machine's. */
  dbTime: (now: number) => number;
  plan: (c: PgQuerier, claim: PageClaim, result: PageFetchResult) => Promise<PagePlan>;
  discover: (c: PgQuerier, list: Enqueue[], at: number) => Promise<{ ids: Map<string, number> }>;
  /** The notification that tells the cluster's nodes there is work (channel, payload), sent with the hosts' update. */
  workNotice: readonly [string, string];
}

/** What a batch did: each page's outcome, and the change to the queued, crawled and failed counts. */
export interface BatchRecorded {
  outcomes: RecordOutcome[];
  queued: number;
  crawled: number;
  failed: number;
}

/** Records a batch in the transaction `c` (run again from the start if the transaction is). */
export async function recordBatch(c: PgQuerier, batch: RecordBatch): Promise<BatchRecorded> {
  const { items, planned, node: me, settings } = batch;
  const ids = new Map(batch.discovered);
  const outcomes: RecordOutcome[] = items.map(() => 'lost');
  // Every URL of the batch locked at once, in id order (the same order on every node).
  const urlIds = [...new Set(items.map((i) => i.claim.urlId))].sort((a, b) => a - b);
  const { rows: urlRows } = await c.query<{ id: number; state: number; lease_node: string | null; attempts: number }>(
    'SELECT id, state, lease_node, attempts FROM urls WHERE id = ANY($1::bigint[]) ORDER BY id FOR UPDATE',
    [urlIds],
  );
  const byId = new Map(urlRows.map((r) => [r.id, r]));
  const hostIds = [...new Set(items.map((i) => i.claim.hostId))];
  const { rows: hostRows } = await c.query<{ id: number; crawl_delay_ms: number }>(
    'SELECT id, crawl_delay_ms FROM hosts WHERE id = ANY($1::bigint[])',
    [hostIds],
  );
  const delayOf = new Map(hostRows.map((h) => [h.id, h]));
  const hosts = new Map<number, HostDelta>();
  const delta = (id: number): HostDelta => {
    let d = hosts.get(id);
    if (!d) hosts.set(id, (d = emptyHostDelta()));
    return d;
  };
  const requeued: { id: number; attempts: number }[] = [];
  const finished: { id: number; state: number; attempts: number }[] = [];
  const rows: ResultRow[] = [];
  /** The URL of each of rows' pages (results.canonical_self compares it with the canonical). */
  const rowUrls: string[] = [];
  const renders: unknown[][] = [];
  const contents: NonNullable<ReturnType<typeof contentRowOf>>[] = [];
  const links: LinkRow[] = [];
  const unfetchable: { from: number; href: string; scheme: string; anchor: string | null }[] = [];
  const extracted: { urlId: number; rule: string; n: number; value: string }[] = [];
  const imageUses: ImageUseRow[] = [];
  const structuredData: StructuredDataRow[] = [];
  const socialTags: SocialTagRow[] = [];
  // Security and hreflang (issue 18.5).
  const security: unknown[][] = [];
  const hreflang: [number, number, string, number][] = [];
  let reclaimed = 0;
  const seen = new Set<number>();
  for (let k = 0; k < items.length; k++) {
    const { claim, result } = items[k]!;
    const row = byId.get(claim.urlId);
    if (!row || seen.has(claim.urlId)) continue;
    seen.add(claim.urlId);
    const h = delta(claim.hostId);
    if (!(row.state === UrlState.claimed && row.lease_node === me)) {
      if (row.state !== UrlState.queued) continue; // another node has it, or has recorded it
      // The lease ran out (the store was away) and nobody took the URL since: it is this node's again.
      h.queued -= 1;
      h.inFlight += 1;
      reclaimed++;
    }
    const now = batch.dbTime(items[k]!.now ?? Date.now());
    const attempts = row.attempts + 1;
    h.inFlight -= 1;
    h.next = Math.max(h.next, nextFetchAfter(settings, result.responseTimeMs, delayOf.get(claim.hostId)?.crawl_delay_ms ?? 0, now));
    h.lastFetchMs = Math.round(result.responseTimeMs);
    const retryIn = retryDelayMs(result, attempts, settings);
    if (retryIn !== null) {
      // Not a verdict yet: back in the queue, and its host waits before anyone fetches from it again.
      requeued.push({ id: claim.urlId, attempts });
      h.queued += 1;
      h.backoff = Math.max(h.backoff, now + retryIn);
      outcomes[k] = 'retry';
      continue;
    }
    let plan = planned.get(k);
    if (!plan) {
      // Foreseen as a retry, but its attempts had changed (another node's retry): its targets are found now.
      plan = await batch.plan(c, claim, result);
      const late = await batch.discover(c, plan.found, now);
      for (const [url, id] of late.ids) ids.set(url, id);
    }
    const redirect = plan.redirect;
    finished.push({ id: claim.urlId, state: result.statusCode !== null ? UrlState.done : UrlState.failed, attempts });
    rows.push(resultRowOf(claim, result, redirect, attempts, now));
    rowUrls.push(claim.url);
    const render = renderRowOf(claim, result);
    if (render !== null) renders.push(render);
    const content = contentRowOf(claim, result);
    if (content !== null) contents.push(content);
    const counts = hostCountsOf(result);
    h.crawled += counts.crawled;
    h.failed += counts.failed;
    h.httpErrors += counts.httpErrors;
    h.bytes += counts.bytes;
    for (const t of plan.targets) {
      links.push({
        from: claim.urlId,
        url: t.url,
        anchor: t.anchor,
        kind: t.linkKind,
        nofollow: t.nofollow,
        rendered: t.rendered === true,
      });
    }
    for (const l of result.unfetchableLinks)
      unfetchable.push({ from: claim.urlId, href: l.href, scheme: l.scheme, anchor: l.anchor || null });
    for (const [rule, values] of Object.entries(result.extracted ?? {}))
      values.forEach((value, n) => extracted.push({ urlId: claim.urlId, rule, n, value }));
    for (const i of result.images ?? [])
      imageUses.push({ page: claim.urlId, url: i.url, alt: i.alt, altLen: i.altLength, width: i.width, height: i.height });
    structuredData.push(...structuredDataRowsOf(claim.urlId, result));
    socialTags.push(...socialTagRowsOf(claim.urlId, result));
    const sec = securityRowOf(claim, result);
    if (sec !== null) security.push(sec);
    hreflang.push(...hreflangRowsOf(claim, result, (url) => ids.get(url)));
    outcomes[k] = 'recorded';
  }
  if (requeued.length) {
    await c.query(
      `UPDATE urls u SET state = ${UrlState.queued}, attempts = v.attempts, lease_node = NULL, lease_until = NULL
       FROM unnest($1::bigint[], $2::int[]) AS v(id, attempts) WHERE u.id = v.id`,
      [requeued.map((r) => r.id), requeued.map((r) => r.attempts)],
    );
  }
  // The writes of the pages recorded go as one statement (WriteGroup): the batch's common tables. Those most pages
  // have none of (renders, unfetchable links, extracted values, image uses, structured data, social tags, hreflang)
  // are sent on their own when there are some, so the statement's text takes a few forms, not one per mix of them.
  const group = new WriteGroup();
  if (finished.length) {
    await group.querier.query(
      `UPDATE urls u SET state = v.state, attempts = v.attempts, lease_node = NULL, lease_until = NULL
       FROM unnest($1::bigint[], $2::smallint[], $3::int[]) AS v(id, state, attempts) WHERE u.id = v.id`,
      [finished.map((r) => r.id), finished.map((r) => r.state), finished.map((r) => r.attempts)],
    );
    await insertContent(group.querier, contents);
  }
  await insertLinks(group.querier, links, ids);
  await insertSecurity(group.querier, security);
  // The results rows last in the group: their insert counts each title and description into a row shared by every
  // page with that text (pg-schema.ts, TEXT_COUNTS_TABLE), which other nodes recording the same title wait for until
  // this transaction ends.
  if (finished.length) await insertResults(group.querier, rows, me, rowUrls);
  await group.send(c);
  await insertRenders(c, renders);
  await insertUnfetchable(c, unfetchable);
  await insertExtracted(c, extracted);
  await insertImageUses(c, imageUses);
  await insertStructuredData(c, structuredData);
  await insertSocialTags(c, socialTags);
  await insertHreflang(c, hreflang);
  // The host rows last: they are what other nodes' claims skip while locked, so hold them for the least time.
  await updateHosts(c, hosts, batch.workNotice);
  const recorded = rows.length;
  const ok = rows.filter((r) => r.statusCode !== null).length;
  return { outcomes, queued: requeued.length - reclaimed, crawled: ok, failed: recorded - ok };
}
