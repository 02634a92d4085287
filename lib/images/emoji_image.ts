// Custom emoji images as Zulip's resize_emoji makes them (zerver/lib/thumbnail.py): 64x64, in the
// uploaded format; a still image cropped to the square from its centre, an animated one kept
// animated, fitted into the square and padded with transparency. Decoding and encoding run in
// sharp's (libvips') worker threads, after the image's size was checked from its header.
import sharp from 'sharp';
import { imageEnd, type ImageContainer } from './image_end.js';

/** Zulip's DEFAULT_EMOJI_SIZE. */
export const EMOJI_SIZE = 64;

/** Zulip's IMAGE_BOMB_TOTAL_PIXELS, counted over every frame for emoji (their original is never served). */
const MAX_TOTAL_PIXELS = 90_000_000;

/** Zulip's MAX_EMOJI_GIF_FILE_SIZE_BYTES: the most a resized emoji may weigh. */
export const MAX_EMOJI_OUTPUT_BYTES = 128 * 1024;

export type EmojiImageProblem = 'undecodable' | 'trailing_data' | 'too_large';

export class EmojiImageError extends Error {
  constructor(readonly problem: EmojiImageProblem) {
    super(problem);
    this.name = 'EmojiImageError';
  }
}

const TRANSPARENT = { r: 0, g: 0, b: 0, alpha: 0 };

/**
 * The emoji made from an uploaded image in `container`'s format: data past the image's end, an
 * image that cannot be decoded, over 90 million pixels in all, or whose result is over 128 KiB
 * throw EmojiImageError.
 */
export async function resizeEmoji(data: Buffer, container: ImageContainer): Promise<Buffer> {
  const end = imageEnd(data, container);
  if (end === undefined) throw new EmojiImageError('undecodable');
  if (end < data.length) throw new EmojiImageError('trailing_data');
  let resized: Buffer;
  try {
    const header = await sharp(data, { animated: true, limitInputPixels: false }).metadata();
    const pages = header.pages ?? 1;
    const frameHeight = header.pageHeight ?? header.height;
    if (header.width * frameHeight * pages > MAX_TOTAL_PIXELS) throw new EmojiImageError('too_large');
    const animated = pages > 1;
    const image = sharp(data, { animated, limitInputPixels: MAX_TOTAL_PIXELS }).resize(
      EMOJI_SIZE,
      EMOJI_SIZE,
      animated ? { fit: 'contain', background: TRANSPARENT } : { fit: 'cover', position: 'centre' },
    );
    resized = await image.toFormat(container === 'avif' ? 'heif' : container, container === 'avif' ? { compression: 'av1' } : {}).toBuffer();
  } catch (error) {
    if (error instanceof EmojiImageError) throw error;
    throw new EmojiImageError('undecodable');
  }
  if (resized.length > MAX_EMOJI_OUTPUT_BYTES) throw new EmojiImageError('too_large');
  return resized;
}
