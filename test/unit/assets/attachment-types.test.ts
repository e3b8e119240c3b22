import { describe, expect, it } from 'vitest';
import { dispositionFor, verifiedAttachmentType } from '../../../main/core/issues/attachments/content-types.js';
import { ALLOWED, EXE } from '../../api/issues/attachments/files.js';
import { IMAGES } from '../../fixtures/images.js';

describe('attachment content types', () => {
  it.each(ALLOWED)('accepts %s declared as %s, stored as %s', async (_name, declared, stored, bytes) => {
    expect(await verifiedAttachmentType(bytes, declared)).toBe(stored);
  });

  it('ignores case and parameters of the declared type', async () => {
    expect(await verifiedAttachmentType(Buffer.from('a,b'), 'Text/CSV; Charset=UTF-8')).toBe('text/csv');
    expect(await verifiedAttachmentType(Buffer.from('\uFEFF{"a":1}'), 'application/json')).toBe('application/json');
  });

  it('refuses types outside the allowlist even when the bytes look harmless', async () => {
    for (const [bytes, type] of [
      [Buffer.from('<p>hi</p>'), 'text/html'],
      [Buffer.from('alert(1)'), 'text/javascript'],
      [Buffer.from('<x/>'), 'application/xml'],
      [Buffer.concat([Buffer.from('BM'), Buffer.alloc(60)]), 'image/bmp'],
      [EXE, 'application/x-msdownload'],
      [IMAGES.png, 'application/octet-stream'],
      [IMAGES.png, ''],
    ] as const) {
      expect(await verifiedAttachmentType(bytes, type), type).toBeNull();
    }
  });

  it('refuses bytes that are not what the declared type says', async () => {
    expect(await verifiedAttachmentType(IMAGES.gif, 'image/png')).toBeNull();
    expect(await verifiedAttachmentType(EXE, 'application/pdf')).toBeNull();
    expect(await verifiedAttachmentType(EXE, 'application/zip')).toBeNull();
    expect(await verifiedAttachmentType(IMAGES.png, 'text/plain')).toBeNull();
    expect(await verifiedAttachmentType(Buffer.from('ok\0'), 'text/markdown')).toBeNull();
    expect(await verifiedAttachmentType(Buffer.from('not json'), 'application/json')).toBeNull();
    expect(await verifiedAttachmentType(Buffer.from([0xc3, 0x28]), 'text/plain')).toBeNull();
  });

  it('shows raster images inline and sends everything else, SVG too, as a download', () => {
    for (const t of ['image/png', 'image/jpeg', 'image/webp', 'image/gif']) expect(dispositionFor(t)).toBe('inline');
    for (const t of ['image/svg+xml', 'application/pdf', 'text/plain', 'application/json', 'application/zip']) expect(dispositionFor(t)).toBe('attachment');
  });
});
