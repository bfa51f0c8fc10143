// Saving what a view draws (the crawl map, its depth charts, the site structure) from the page itself: a Blob handed
// to the browser's download, an SVG picture raster-drawn to PNG, and the small button each export sits behind. The
// pictures are made here, not by the host, because they are the view as the person sees it (its theme's colours).
import type { ReactNode } from 'react';

/** Starts the browser's download of `blob` as `name` (Electron's download handler asks where to save it). */
export function downloadBlob(blob: Blob, name: string): void {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  a.style.display = 'none';
  document.body.append(a);
  a.click();
  a.remove();
  // Revoked later: the download reads the URL after click() returns.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** Downloads a standalone SVG picture. */
export function downloadSvg(svg: string, name: string): void {
  downloadBlob(new Blob([svg], { type: 'image/svg+xml' }), name);
}

/**
 * Draws a standalone SVG picture onto a canvas at `scale` times its size and downloads it as PNG. The SVG goes in as
 * a data: URL, which both CSPs allow for images (img-src 'self' data:); a blob: URL would not be.
 */
export function downloadSvgAsPng(svg: string, name: string, scale = 2): Promise<boolean> {
  return new Promise((resolve) => {
    const img = new Image();
    img.onerror = () => resolve(false);
    img.onload = () => {
      const canvas = document.createElement('canvas');
      canvas.width = Math.max(1, Math.round(img.naturalWidth * scale));
      canvas.height = Math.max(1, Math.round(img.naturalHeight * scale));
      const ctx = canvas.getContext('2d');
      if (!ctx) return resolve(false);
      ctx.scale(scale, scale);
      ctx.drawImage(img, 0, 0);
      canvas.toBlob((blob) => {
        if (blob) downloadBlob(blob, name);
        resolve(blob !== null);
      }, 'image/png');
    };
    img.src = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`;
  });
}

/** One export's button: a short label (PNG, SVG, CSV) and the whole command as its title. */
export function ExportButton({
  testId,
  title,
  disabled = false,
  onClick,
  children,
}: {
  testId: string;
  title: string;
  disabled?: boolean;
  onClick: () => void;
  children: ReactNode;
}) {
  return (
    <button type="button" className="btn btn-small" data-testid={testId} title={title} disabled={disabled} onClick={onClick}>
      {children}
    </button>
  );
}
