// Pages per second over the last snapshots, as an inline SVG (no canvas, no library).
import { memo } from 'react';
import { formatDecimal } from '../format.ts';
import { useTranslation } from '../i18n/i18n.ts';

const W = 120;
const H = 28;

export function sparklinePath(points: readonly number[], width = W, height = H): { line: string; area: string; max: number } {
  if (points.length === 0) return { line: '', area: '', max: 0 };
  const max = Math.max(1, ...points.map((p) => (Number.isFinite(p) ? p : 0)));
  const step = points.length > 1 ? width / (points.length - 1) : 0;
  const xy = points.map((p, i) => {
    const x = points.length > 1 ? i * step : width;
    const y = height - 1 - (Math.max(0, Number.isFinite(p) ? p : 0) / max) * (height - 3);
    return `${x.toFixed(1)},${y.toFixed(1)}`;
  });
  const line = `M${xy.join('L')}`;
  const firstX = points.length > 1 ? 0 : width;
  const area = `${line}L${width},${height}L${firstX},${height}Z`;
  return { line, area, max };
}

export const Sparkline = memo(function Sparkline({ points }: { points: readonly number[] }) {
  const { line, area, max } = sparklinePath(points);
  const { t } = useTranslation('live');
  return (
    <svg
      className="sparkline"
      viewBox={`0 0 ${W} ${H}`}
      preserveAspectRatio="none"
      role="img"
      aria-label={t('sparkline.label', { count: points.length, peak: formatDecimal(max, 1) })}
      data-points={points.length}
    >
      <title>{t('sparkline.title', { count: points.length, peak: formatDecimal(max, 1) })}</title>
      {area && <path className="sparkline-area" d={area} />}
      {line && <path className="sparkline-line" d={line} vectorEffect="non-scaling-stroke" />}
    </svg>
  );
});
