// Where an image file's own data ends, by walking its container (PNG chunks up to IEND, GIF blocks
// up to the trailer, JPEG segments up to EOI, the RIFF size of WebP, the top-level boxes of AVIF):
// bytes past that are no part of the image (a file hidden behind a tiny picture). Decoders stop at
// the end and say nothing of what follows, so the end is found here.

export type ImageContainer = 'png' | 'gif' | 'jpeg' | 'webp' | 'avif';

/** The offset just past the image's data, or undefined when the container is malformed or cut short. */
export function imageEnd(data: Buffer, container: ImageContainer): number | undefined {
  try {
    switch (container) {
      case 'png':
        return pngEnd(data);
      case 'gif':
        return gifEnd(data);
      case 'jpeg':
        return jpegEnd(data);
      case 'webp':
        return webpEnd(data);
      case 'avif':
        return boxesEnd(data);
    }
  } catch (error) {
    if (error instanceof RangeError) return undefined;
    throw error;
  }
}

/** Chunks: length, type, data, CRC; IEND is the last. */
function pngEnd(data: Buffer): number | undefined {
  for (let at = 8; at + 12 <= data.length; ) {
    const length = data.readUInt32BE(at);
    const end = at + 12 + length;
    if (end > data.length) return undefined;
    if (data.toString('latin1', at + 4, at + 8) === 'IEND') return end;
    at = end;
  }
  return undefined;
}

/** Sub-blocks (a length byte, that many bytes) up to an empty one; returns the offset after it. */
function subBlocksEnd(data: Buffer, start: number): number {
  let at = start;
  for (let size = data.readUInt8(at); size !== 0; size = data.readUInt8(at)) at += size + 1;
  return at + 1;
}

const colorTableBytes = (packed: number): number => (packed & 0x80 ? 3 * 2 ** ((packed & 7) + 1) : 0);

/** Header, screen descriptor, global color table, then extensions and images up to the trailer (0x3B). */
function gifEnd(data: Buffer): number | undefined {
  let at = 13 + colorTableBytes(data.readUInt8(10));
  for (;;) {
    const introducer = data.readUInt8(at);
    if (introducer === 0x3b) return at + 1;
    if (introducer === 0x21) at = subBlocksEnd(data, at + 2);
    else if (introducer === 0x2c) at = subBlocksEnd(data, at + 10 + colorTableBytes(data.readUInt8(at + 9)) + 1);
    else return undefined;
  }
}

/** Segments after SOI up to EOI; after each start of scan, entropy-coded data up to the next marker. */
function jpegEnd(data: Buffer): number | undefined {
  let at = 2;
  for (;;) {
    if (data.readUInt8(at) !== 0xff) return undefined;
    while (data.readUInt8(at) === 0xff) at += 1;
    const marker = data.readUInt8(at);
    at += 1;
    if (marker === 0xd9) return at;
    if ((marker >= 0xd0 && marker <= 0xd7) || marker === 0x01) continue;
    at += data.readUInt16BE(at);
    if (marker !== 0xda) continue;
    // Scan data: 0xFF is followed by 0x00 (a stuffed byte) or a restart marker, until a real marker.
    for (;;) {
      if (data.readUInt8(at) === 0xff) {
        const next = data.readUInt8(at + 1);
        if (next !== 0 && !(next >= 0xd0 && next <= 0xd7)) break;
      }
      at += 1;
    }
  }
}

/** RIFF: the size after the tag counts everything from "WEBP" on, padded to an even length. */
function webpEnd(data: Buffer): number | undefined {
  const size = data.readUInt32LE(4);
  const end = 8 + size + (size % 2);
  return end <= data.length ? end : undefined;
}

/** ISO base media boxes (AVIF): size and type; size 1: a 64-bit size follows; size 0: to the end. */
function boxesEnd(data: Buffer): number {
  let at = 0;
  while (at + 8 <= data.length) {
    let size = data.readUInt32BE(at);
    if (size === 0) return data.length;
    if (size === 1) size = Number(data.readBigUInt64BE(at + 8));
    if (size < 8 || at + size > data.length) return at;
    at += size;
  }
  return at;
}
