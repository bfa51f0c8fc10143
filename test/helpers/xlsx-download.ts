// Downloads as the export tests read them: a URL's bytes (status and headers too), and an XLSX file's worksheets.
import http from 'node:http';
import ExcelJS from 'exceljs';

export function getBytes(
  url: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
      })
      .on('error', reject);
  });
}

/** The worksheets of an XLSX workbook's bytes. */
export async function worksheetsOf(bytes: Buffer): Promise<ExcelJS.Worksheet[]> {
  const book = new ExcelJS.Workbook();
  await book.xlsx.load(bytes as unknown as ArrayBuffer);
  return book.worksheets;
}
