import { IMAGES } from '../../../fixtures/images.js';

/** One small real file per allowed attachment type: [file name, declared type, stored type, bytes]. */
export const ALLOWED: readonly (readonly [string, string, string, Buffer])[] = [
  ['photo.png', 'image/png', 'image/png', IMAGES.png],
  ['photo.jpeg', 'image/jpeg', 'image/jpeg', IMAGES.jpeg],
  ['photo.jpg', 'image/jpg', 'image/jpeg', IMAGES.jpeg],
  ['photo.webp', 'image/webp', 'image/webp', IMAGES.webp],
  ['anim.gif', 'image/gif', 'image/gif', IMAGES.gif],
  ['diagram.svg', 'image/svg+xml', 'image/svg+xml', IMAGES.svg],
  ['spec.pdf', 'application/pdf', 'application/pdf', Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n')],
  ['notes.txt', 'text/plain', 'text/plain', Buffer.from('Plain notes, UTF-8: café ☕\n')],
  ['README.md', 'text/markdown', 'text/markdown', Buffer.from('# Plan\n\n- ship it\n')],
  ['legacy.md', 'text/x-markdown', 'text/markdown', Buffer.from('*old alias*\n')],
  ['leads.csv', 'text/csv; charset=utf-8', 'text/csv', Buffer.from('name,email\nAda,ada@example.com\n')],
  ['data.json', 'application/json', 'application/json', Buffer.from('{"ok":true,"items":[1,2,3]}')],
  [
    'bundle.zip',
    'application/zip',
    'application/zip',
    Buffer.from(
      'UEsDBBQAAAAAABtgdl0gMDo2BgAAAAYAAAAJAAAAaGVsbG8udHh0aGVsbG8KUEsBAhQDFAAAAAAAG2B2XSAwOjYGAAAABgAAAAkAAAAAAAAAAAAAAIABAAAAAGhlbGxvLnR4dFBLBQYAAAAAAQABADcAAAAtAAAAAAA=',
      'base64',
    ),
  ],
];

/** A Windows executable header: what `application/x-msdownload` uploads look like. */
export const EXE = Buffer.concat([Buffer.from('MZ'), Buffer.alloc(62), Buffer.from('PE\0\0')]);
