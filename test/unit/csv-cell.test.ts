// CSV formula neutralisation, cell by cell: what a spreadsheet would run as a formula gets a leading quote, and
// nothing else changes (the exports and the comparison CSV all go through neutraliseCell).
import { describe, expect, it } from 'vitest';
import { neutraliseCell } from '../../electron/engine/export/csv-cell.ts';

describe('neutraliseCell', () => {
  it('prefixes a quote to a cell starting with = + - @, a tab or a carriage return', () => {
    for (const cell of ['=HYPERLINK("http://evil.example","x")', '+1+2', '-2+3', '@SUM(A1)', '\t=1', '\r=1', '=', '-'])
      expect(neutraliseCell(cell), JSON.stringify(cell)).toBe(`'${cell}`);
  });

  it('leaves every other cell as it is, a formula character later in it included', () => {
    for (const cell of ['', 'Home', ' =1', 'a=b', "'=already", '1-2', '\n=1', 'x@y.z', '%', '#', '*'])
      expect(neutraliseCell(cell), JSON.stringify(cell)).toBe(cell);
  });
});
