import { describe, expect, it } from 'vitest';
import { looksLikeSvg, verifiedImageType } from '../../../main/core/assets/image-type.js';
import { safeFileName } from '../../../main/core/assets/service.js';
import { IMAGES } from '../../fixtures/images.js';

describe('image type verification', () => {
  it('accepts each allowed type when bytes and declaration agree', async () => {
    expect(await verifiedImageType(IMAGES.png, 'image/png')).toBe('image/png');
    expect(await verifiedImageType(IMAGES.jpeg, 'image/jpeg')).toBe('image/jpeg');
    expect(await verifiedImageType(IMAGES.jpeg, 'image/jpg')).toBe('image/jpeg');
    expect(await verifiedImageType(IMAGES.gif, 'image/gif')).toBe('image/gif');
    expect(await verifiedImageType(IMAGES.webp, 'image/webp')).toBe('image/webp');
    expect(await verifiedImageType(IMAGES.svg, 'image/svg+xml')).toBe('image/svg+xml');
  });
  it('refuses a mismatch, a disallowed type and non-images', async () => {
    expect(await verifiedImageType(IMAGES.png, 'image/gif')).toBeNull();
    expect(await verifiedImageType(IMAGES.gif, 'image/bmp')).toBeNull();
    expect(await verifiedImageType(Buffer.from('<html><script>alert(1)</script></html>'), 'image/svg+xml')).toBeNull();
    expect(await verifiedImageType(Buffer.from('%PDF-1.4\n'), 'image/png')).toBeNull();
  });
  it('recognises SVG after a prolog, comments and doctype, and refuses invalid UTF-8', () => {
    expect(looksLikeSvg(Buffer.from('\uFEFF<?xml version="1.0"?>\n<!-- logo -->\n<!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" "x">\n<svg xmlns="http://www.w3.org/2000/svg"/>'))).toBe(true);
    expect(looksLikeSvg(Buffer.from('<svgx>'))).toBe(false);
    expect(looksLikeSvg(Buffer.from([0x3c, 0x73, 0x76, 0x67, 0x20, 0xff, 0xfe]))).toBe(false);
  });
  it('makes file names safe for Content-Disposition', () => {
    expect(safeFileName('../../etc/passwd')).toBe('passwd');
    expect(safeFileName('a"b\r\nc.png')).toBe('a_b__c.png');
    expect(safeFileName('')).toBe('file');
  });
});
