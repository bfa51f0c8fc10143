// How numbers, sizes and durations read in a dense table.

const intFormat = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });

export function formatInt(n: number | null | undefined): string {
  return n === null || n === undefined || !Number.isFinite(n) ? '' : intFormat.format(n);
}

export function formatRate(n: number): string {
  if (!Number.isFinite(n) || n <= 0) return '0';
  return n >= 100 ? intFormat.format(n) : n.toFixed(1);
}

export function formatBytes(n: number | null | undefined): string {
  if (n === null || n === undefined || !Number.isFinite(n)) return '';
  if (n < 1024) return `${n} B`;
  const units = ['kB', 'MB', 'GB', 'TB'];
  let v = n / 1024;
  let u = 0;
  while (v >= 1024 && u < units.length - 1) {
    v /= 1024;
    u++;
  }
  return `${v >= 100 ? v.toFixed(0) : v.toFixed(1)} ${units[u]}`;
}

/** 0:07, 12:34, 1:02:03. */
export function formatClock(ms: number): string {
  const total = Math.max(0, Math.floor(ms / 1000));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  const ss = String(s).padStart(2, '0');
  return h ? `${h}:${String(m).padStart(2, '0')}:${ss}` : `${m}:${ss}`;
}

/** Time in a step: 0.4 s, 12 s, 3 m 05 s. */
export function formatStepTime(ms: number): string {
  const t = Math.max(0, ms);
  if (t < 10_000) return `${(t / 1000).toFixed(1)} s`;
  if (t < 60_000) return `${Math.floor(t / 1000)} s`;
  const m = Math.floor(t / 60_000);
  const s = Math.floor((t % 60_000) / 1000);
  return m < 60 ? `${m} m ${String(s).padStart(2, '0')} s` : formatClock(t);
}

/** text/html; charset=utf-8 -> text/html */
export function shortContentType(ct: string | null): string {
  if (!ct) return '';
  return ct.split(';')[0]!.trim();
}

export function fileName(path: string | null): string {
  if (!path) return '';
  const parts = path.split(/[\\/]/);
  return parts[parts.length - 1] ?? path;
}

export function formatWhen(iso: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

export function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}
