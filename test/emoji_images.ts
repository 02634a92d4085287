// Real images for the custom emoji tests, made with sharp: every accepted format as a 120x60 still,
// an animated GIF and WebP, a PNG of an exact size (its padding inside a chunk of its own), and a
// PNG whose header claims more pixels than any emoji may have.
import { crc32, deflateSync } from 'node:zlib';
import sharp from 'sharp';

const WIDTH = 120;
const HEIGHT = 60;
export const FRAMES = 3;

const still = () => sharp({ create: { width: WIDTH, height: HEIGHT, channels: 4, background: { r: 200, g: 30, b: 30, alpha: 1 } } });

/** Three frames of WIDTH x HEIGHT, one colour each, as one strip of pages. */
async function animated(format: 'gif' | 'webp'): Promise<Buffer> {
  const frame = (r: number, g: number, b: number) => Buffer.alloc(WIDTH * HEIGHT * 4).fill(Buffer.from([r, g, b, 255]));
  const strip = Buffer.concat([frame(255, 0, 0), frame(0, 255, 0), frame(0, 0, 255)]);
  const pages = sharp(strip, { raw: { width: WIDTH, height: HEIGHT * FRAMES, channels: 4, pageHeight: HEIGHT } });
  return format === 'gif' ? pages.gif({ loop: 0, delay: [100, 100, 100] }).toBuffer() : pages.webp({ loop: 0, delay: [100, 100, 100] }).toBuffer();
}

export const STILLS = {
  png: await still().png().toBuffer(),
  gif: await still().gif().toBuffer(),
  jpeg: await still().jpeg().toBuffer(),
  'progressive jpeg': await still().jpeg({ progressive: true }).toBuffer(),
  webp: await still().webp().toBuffer(),
  avif: await still().avif().toBuffer(),
};

export const ANIMATED = { gif: await animated('gif'), webp: await animated('webp') };

function chunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
  return Buffer.concat([head, data, crc]);
}

const IEND_BYTES = 12;

/** STILLS.png grown to exactly `bytes` by an ancillary chunk before IEND: all of it inside the image. */
export function pngOfSize(bytes: number): Buffer {
  const image = STILLS.png;
  const padding = bytes - image.length - 12;
  if (padding < 0) throw new Error(`a PNG of ${bytes} bytes cannot hold the image`);
  const body = image.subarray(0, image.length - IEND_BYTES);
  return Buffer.concat([body, chunk('prLy', Buffer.alloc(padding, 0x2a)), image.subarray(image.length - IEND_BYTES)]);
}

/** A valid PNG whose header says 10,000 x 10,000 pixels (its data holds one row). */
export function pngClaimingPixels(): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(10_000, 0);
  header.writeUInt32BE(10_000, 4);
  header.writeUInt8(8, 8); // bit depth
  header.writeUInt8(0, 9); // greyscale
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(Buffer.alloc(10_001))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** The format, size and frames of an image, as sharp reads them. */
export async function describe(image: Buffer): Promise<{ format: string | undefined; width: number; height: number; frames: number }> {
  const meta = await sharp(image, { animated: true }).metadata();
  return { format: meta.format, width: meta.width, height: meta.pageHeight ?? meta.height, frames: meta.pages ?? 1 };
}
