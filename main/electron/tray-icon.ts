import { crc32, deflateSync } from 'node:zlib';

/**
 * The tray and window icon, drawn in code: a rounded indigo square with a white "H". Drawn rather
 * than shipped so the shell needs no binary asset until real artwork lands in build/ (see
 * electron-builder.yml); `size` 32 suits trays at 2x scale.
 */
export function trayIconPng(size = 32): Buffer {
  const px = Buffer.alloc(size * size * 4);
  const radius = size * 0.22;
  const inCorner = (x: number, y: number): boolean => {
    const cx = x < radius ? radius : x > size - 1 - radius ? size - 1 - radius : x;
    const cy = y < radius ? radius : y > size - 1 - radius ? size - 1 - radius : y;
    return (x - cx) ** 2 + (y - cy) ** 2 <= radius ** 2;
  };
  const stroke = Math.max(2, Math.round(size * 0.14));
  const top = Math.round(size * 0.25);
  const bottom = size - top;
  const left = Math.round(size * 0.28);
  const right = size - left;
  const mid = Math.round(size / 2 - stroke / 2);
  const inH = (x: number, y: number): boolean =>
    y >= top && y < bottom && ((x >= left && x < left + stroke) || (x >= right - stroke && x < right) || (y >= mid && y < mid + stroke && x >= left && x < right));
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      const i = (y * size + x) * 4;
      if (!inCorner(x, y)) continue;
      const white = inH(x, y);
      px[i] = white ? 255 : 0x4f;
      px[i + 1] = white ? 255 : 0x46;
      px[i + 2] = white ? 255 : 0xe5;
      px[i + 3] = 255;
    }
  }
  return encodePng(size, size, px);
}

function chunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'ascii');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
  return Buffer.concat([head, data, crc]);
}

/** A minimal RGBA PNG encoder (filter 0 on every row). */
export function encodePng(width: number, height: number, rgba: Buffer): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 6; // RGBA
  const rows = Buffer.alloc((width * 4 + 1) * height);
  for (let y = 0; y < height; y++) rgba.copy(rows, y * (width * 4 + 1) + 1, y * width * 4, (y + 1) * width * 4);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(rows)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}
