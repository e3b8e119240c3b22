import { describe, expect, it } from 'vitest';
import { contentDisposition, servedContentType } from '../../../main/core/assets/serve.js';
import { safeFileName } from '../../../main/core/assets/service.js';

describe('Content-Disposition', () => {
  it('quotes a plain ASCII name and adds nothing else', () => {
    expect(contentDisposition('inline', 'logo.png')).toBe('inline; filename="logo.png"');
    expect(contentDisposition('attachment', 'Q3 report (final).pdf')).toBe('attachment; filename="Q3 report (final).pdf"');
  });

  it('adds an RFC 5987 filename* for non-ASCII names, with an ASCII fallback', () => {
    expect(contentDisposition('attachment', 'Отчёт.pdf')).toBe(`attachment; filename="_.pdf"; filename*=UTF-8''%D0%9E%D1%82%D1%87%D1%91%D1%82.pdf`);
    expect(contentDisposition('attachment', 'naïve (1).txt')).toBe(`attachment; filename="na_ve (1).txt"; filename*=UTF-8''na%C3%AFve%20%281%29.txt`);
  });

  it('cannot be broken out of, whatever name reaches it', () => {
    for (const name of ['a"; filename="evil.html', 'x\r\nSet-Cookie: a=b', "it's*.txt", '\u202Egpj.exe']) {
      const header = contentDisposition('attachment', name);
      expect(header).toMatch(/^attachment; filename="[A-Za-z0-9._ ()-]+"(; filename\*=UTF-8''[A-Za-z0-9!#$&+.^_`|~%-]+)?$/);
    }
    expect(contentDisposition('attachment', '')).toBe('attachment; filename="file"');
  });
});

describe('served content type', () => {
  it('declares UTF-8 for the text types it verified, and leaves binaries alone', () => {
    expect(servedContentType('text/plain')).toBe('text/plain; charset=utf-8');
    expect(servedContentType('text/csv')).toBe('text/csv; charset=utf-8');
    expect(servedContentType('application/json')).toBe('application/json; charset=utf-8');
    expect(servedContentType('image/svg+xml')).toBe('image/svg+xml');
    expect(servedContentType('application/pdf')).toBe('application/pdf');
  });
});

describe('safeFileName', () => {
  it('keeps letters of any script, normalised to NFC', () => {
    expect(safeFileName('résumé 報告.txt')).toBe('résumé 報告.txt');
    expect(safeFileName('re\u0301sume\u0301.txt')).toBe('résumé.txt');
  });
  it('drops directories, dot names, bidi overrides and control characters', () => {
    expect(safeFileName('C:\\Users\\me\\..\\secret.txt')).toBe('secret.txt');
    expect(safeFileName('../..')).toBe('file');
    expect(safeFileName(' . ')).toBe('file');
    expect(safeFileName('evil\u202Etxt.exe')).toBe('evil_txt.exe');
    expect(safeFileName('tab\there\u0000.md')).toBe('tab_here_.md');
  });
  it('caps the length by characters, not UTF-16 units', () => {
    const long = safeFileName('😀'.repeat(10) + 'é'.repeat(300));
    expect(Array.from(long)).toHaveLength(200);
    expect(long.startsWith('__________é')).toBe(true);
  });
});
