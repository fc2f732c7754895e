import { crc32, deflateSync } from "node:zlib";

/** A small RGB PNG drawn by `pixel` (made here: no binary assets in the repository). */
export function png(width: number, height: number, pixel: (x: number, y: number) => [number, number, number]): Buffer {
  const rows = Buffer.alloc((width * 3 + 1) * height);
  for (let y = 0; y < height; y++) {
    const row = y * (width * 3 + 1); // each row starts with filter type 0
    for (let x = 0; x < width; x++) rows.set(pixel(x, y), row + 1 + x * 3);
  }
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, "latin1"), data]);
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8-bit RGB, no interlace
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", header),
    chunk("IDAT", deflateSync(rows, { level: 9 })),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}

/** Grace's picture: a teal disc with a lighter face on a warm background — easy to tell apart. */
export function gracePicture(): Buffer {
  const size = 64;
  return png(size, size, (x, y) => {
    const dx = x - 32, dy = y - 26;
    if (dx * dx + dy * dy < 12 * 12) return [245, 205, 170]; // face
    const sx = x - 32, sy = y - 64;
    if (sx * sx + sy * sy < 26 * 26) return [20, 128, 128]; // shoulders
    return [250 - y, 180 - y, 80]; // background gradient
  });
}
