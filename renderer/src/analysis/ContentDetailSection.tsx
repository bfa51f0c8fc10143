// A page's duplicate content in the URL detail pane (issue 18.1): its main-text word count, the pages with the same
// main text, its near-duplicates with their similarity (closest first, bounded), each openable in the pane, and for
// the chosen near-duplicate (the closest by default) what differs between their main texts: sentences only on this
// page (−) and only on the other (+), runs of the same sentences folded. Crawled content is only ever text.
import { useState } from 'react';
import type { ContentDetail, ContentMatch } from '../../../shared/analysis.ts';
import { type DiffOp, type TextDiff, type WordPart, wordDiff } from '../../../shared/text-diff.ts';
import { formatInt } from '../format.ts';
import { useApi } from '../store/context.tsx';
import { useTranslation } from '../i18n/i18n.ts';
import { useLiveQuery } from './use-live.ts';

/**
 * A line of the diff as shown: a sentence (a replaced one with its words that differ marked), or a fold of `n`
 * sentences the same.
 */
export type DiffLine = { op: DiffOp['op']; text: string; words?: WordPart[] } | { op: 'fold'; n: number };

/** Sentences removed then as many added in their place: the i-th of each a pair, their differing words marked. */
function markReplaced(lines: DiffLine[]): DiffLine[] {
  for (let i = 0; i < lines.length; ) {
    let r = i;
    while (r < lines.length && lines[r]!.op === 'removed') r++;
    let a = r;
    while (a < lines.length && lines[a]!.op === 'added') a++;
    const removed = r - i;
    if (removed > 0 && a - r === removed) {
      for (let k = 0; k < removed; k++) {
        const x = lines[i + k] as { op: 'removed'; text: string; words?: WordPart[] };
        const y = lines[r + k] as { op: 'added'; text: string; words?: WordPart[] };
        const d = wordDiff(x.text, y.text);
        lines[i + k] = { ...x, words: d.removed };
        lines[r + k] = { ...y, words: d.added };
      }
    }
    i = Math.max(a, i + 1);
  }
  return lines;
}

/** Runs of more than three same sentences keep one on each side next to a change and fold the rest. */
export function diffLines(ops: readonly DiffOp[]): DiffLine[] {
  const out: DiffLine[] = [];
  let i = 0;
  while (i < ops.length) {
    if (ops[i]!.op !== 'same') {
      out.push(ops[i]!);
      i++;
      continue;
    }
    let j = i;
    while (j < ops.length && ops[j]!.op === 'same') j++;
    const run = ops.slice(i, j);
    const before = i > 0 ? 1 : 0;
    const after = j < ops.length ? 1 : 0;
    if (run.length <= before + after + 1) out.push(...run);
    else {
      if (before) out.push(run[0]!);
      out.push({ op: 'fold', n: run.length - before - after });
      if (after) out.push(run[run.length - 1]!);
    }
    i = j;
  }
  return markReplaced(out);
}

const percent = (similarity: number) => (Math.round(similarity * 1000) / 10).toString();

export function ContentDetailSection({
  urlId,
  content,
  onOpen,
}: {
  urlId: number;
  content: ContentDetail;
  onOpen: (urlId: number) => void;
}) {
  const { t } = useTranslation('analysis');
  const [chosen, setChosen] = useState<{ page: number; other: number } | null>(null);
  const near = content.near.items;
  // The closest by default; a choice holds while it stays listed for this page.
  const other = (chosen !== null && chosen.page === urlId ? near.find((m) => m.url_id === chosen.other) : undefined) ?? near[0] ?? null;
  const threshold = percent(content.options.threshold);
  const firstOnly = (shown: number, n: number) =>
    shown < n ? <p className="detail-none">{t('detail.content.firstOnly', { shown: formatInt(shown), n: formatInt(n) })}</p> : null;

  return (
    <section className="content-detail" data-testid="detail-content">
      <h3 className="row-details-heading">{t('detail.content.heading')}</h3>
      <dl className="row-details-fields">
        <div className="detail">
          <dt>{t('detail.content.mainWords')}</dt>
          <dd data-testid="detail-main-words" data-value={content.main_words}>
            {formatInt(content.main_words)}
            {content.low && (
              <span className="attention">{` · ${t('detail.content.low', { n: formatInt(content.options.lowContentWords) })}`}</span>
            )}
          </dd>
        </div>
      </dl>
      {!content.compared ? (
        <p className="detail-none">{t('detail.content.notCompared')}</p>
      ) : (
        <>
          <h4 className="content-detail-heading">{t('detail.content.exactHeading', { n: formatInt(content.exact.total) })}</h4>
          {content.exact.total === 0 ? (
            <p className="detail-none">{t('detail.content.noExact')}</p>
          ) : (
            <ul className="link-list" data-testid="detail-exact-duplicates">
              {content.exact.items.map((m) => (
                <li key={m.url_id}>
                  <OpenUrl match={m} onOpen={onOpen} />
                </li>
              ))}
            </ul>
          )}
          {firstOnly(content.exact.items.length, content.exact.total)}
          <h4 className="content-detail-heading">{t('detail.content.nearHeading', { threshold, n: formatInt(content.near.total) })}</h4>
          {near.length === 0 ? (
            <p className="detail-none">{t('detail.content.noNear')}</p>
          ) : (
            <ul className="link-list near-list" data-testid="detail-near-duplicates">
              {near.map((m) => (
                <li key={m.url_id} data-chosen={m.url_id === other?.url_id || undefined} data-similarity={m.similarity}>
                  <OpenUrl match={m} onOpen={onOpen} />
                  <span className="near-row">
                    <span className="link-note">{t('detail.content.similarity', { pct: percent(m.similarity) })}</span>
                    <button
                      type="button"
                      className="btn btn-quiet btn-small"
                      aria-pressed={m.url_id === other?.url_id}
                      onClick={() => setChosen({ page: urlId, other: m.url_id })}
                    >
                      {t('detail.content.showDiff')}
                    </button>
                  </span>
                </li>
              ))}
            </ul>
          )}
          {firstOnly(near.length, content.near.total)}
          {other && <DiffView urlId={urlId} other={other} />}
        </>
      )}
    </section>
  );
}

function OpenUrl({ match, onOpen }: { match: ContentMatch; onOpen: (urlId: number) => void }) {
  const { t } = useTranslation('analysis');
  return (
    <button
      type="button"
      className="link-url link-open"
      data-open-url={match.url}
      title={t('detail.detailsOf', { url: match.url })}
      onClick={() => onOpen(match.url_id)}
    >
      {match.url}
    </button>
  );
}

function DiffView({ urlId, other }: { urlId: number; other: ContentMatch }) {
  const api = useApi();
  const { t } = useTranslation('analysis');
  // Wrapped: null is "not answered yet", { diff: null } "no main text to compare".
  const loaded = useLiveQuery<{ diff: TextDiff | null }>(
    `content-diff|${urlId}|${other.url_id}`,
    async () => ({ diff: await api.contentDiff(urlId, other.url_id) }),
    30_000,
  );
  const data = loaded.data?.diff ?? null;
  const lines = data ? diffLines(data.ops) : [];
  const changed = data ? data.ops.some((o) => o.op !== 'same') : false;
  return (
    <div className="content-diff" data-testid="detail-content-diff" data-other={other.url}>
      <h4 className="content-detail-heading">{t('detail.content.diffHeading', { url: other.url })}</h4>
      {loaded.error ? (
        <div className="analysis-error">{loaded.error}</div>
      ) : loaded.data === null ? (
        <p className="detail-none">{t('detail.content.diffLoading')}</p>
      ) : data === null ? (
        <p className="detail-none">{t('detail.content.diffUnavailable')}</p>
      ) : (
        <>
          <p className="link-note content-diff-key">{t('detail.content.diffKey')}</p>
          {!changed && <p className="detail-none">{t('detail.content.diffNone')}</p>}
          <ol className="content-diff-lines" aria-label={t('detail.content.diffLabel')}>
            {lines.map((l, i) =>
              l.op === 'fold' ? (
                <li key={i} data-op="fold" className="content-diff-fold">
                  {t('detail.content.diffSame', { count: l.n, n: formatInt(l.n) })}
                </li>
              ) : (
                <li key={i} data-op={l.op}>
                  <span className="content-diff-mark" aria-hidden="true">
                    {l.op === 'removed' ? '−' : l.op === 'added' ? '+' : ' '}
                  </span>
                  <span className="content-diff-text">
                    {l.words
                      ? l.words.map((w, k) =>
                          w.changed ? (
                            <mark key={k} className="content-diff-word">
                              {w.text}
                            </mark>
                          ) : (
                            w.text
                          ),
                        )
                      : l.text}
                  </span>
                </li>
              ),
            )}
          </ol>
          {data.truncated && <p className="detail-none">{t('detail.content.diffTruncated')}</p>}
        </>
      )}
    </div>
  );
}
