// Custom emoji: GET /realm/emoji, POST and DELETE /realm/emoji/{emoji_name}, the images at their
// source_url, the realm_emoji event and its /register state.
import { fileTypeFromBuffer } from 'file-type';
import { EmojiImageError, resizeEmoji, type EmojiImageProblem } from '../images/emoji_image.js';
import type { ImageContainer } from '../images/image_end.js';
import type { Ctx } from '../context.js';
import { ApiError, badRequest, notFound } from '../errors.js';
import type { StateOptions } from './state_options.js';
import {
  insertRealmEmoji,
  selectActiveRealmEmojiByName,
  selectRealmEmoji,
  selectRealmEmojiImage,
  updateRealmEmojiDeactivated,
  type RealmEmojiRow,
} from '../store/realm_emoji.js';
import { unicodeEmoji } from './emoji.js';
import { getRealm } from './realm.js';
import { isAdmin, isGuest, type Actor } from './roles.js';
import { requireHuman } from './users.js';
import { emit } from './event_types.js';
import type { RealmEmoji, RealmEmojiState } from './realm_dicts.js';

/**
 * The largest upload, `limits.emojiBytes`: 1 MiB, below Zulip's MAX_EMOJI_FILE_SIZE_MIB (5), since
 * what is kept is a 64x64 image of at most 128 KiB anyway.
 */
const DEFAULT_EMOJI_BYTES = 1024 * 1024;

/** The image types accepted (Zulip's THUMBNAIL_ACCEPT_IMAGE_TYPES), by sniffed MIME type -> container, stored type and extension. */
const IMAGE_FORMATS: Readonly<Record<string, { container: ImageContainer; contentType: string; ext: string }>> = {
  'image/png': { container: 'png', contentType: 'image/png', ext: 'png' },
  // Animated PNG is PNG to every consumer (browsers send image/png for it); libvips reads its first frame.
  'image/apng': { container: 'png', contentType: 'image/png', ext: 'png' },
  'image/gif': { container: 'gif', contentType: 'image/gif', ext: 'gif' },
  'image/jpeg': { container: 'jpeg', contentType: 'image/jpeg', ext: 'jpg' },
  'image/webp': { container: 'webp', contentType: 'image/webp', ext: 'webp' },
  'image/avif': { container: 'avif', contentType: 'image/avif', ext: 'avif' },
};

const IMAGE_PROBLEMS: Record<EmojiImageProblem, string> = {
  // Zulip's BadImageError messages.
  undecodable: 'Could not decode image; did you upload an image file?',
  too_large: 'Image size exceeds limit.',
  trailing_data: 'The file has data after the end of the image.',
};

/** The 64x64 emoji the upload becomes (lib/images/emoji_image.ts), or Zulip's error for a bad image. */
async function emojiImage(data: Buffer, container: ImageContainer): Promise<Buffer> {
  try {
    return await resizeEmoji(data, container);
  } catch (error) {
    if (error instanceof EmojiImageError) throw badRequest(IMAGE_PROBLEMS[error.problem]);
    throw error;
  }
}

/** The one organization's id in Zulip-shaped URLs. */
const REALM_ID = 1;

export interface EmojiUpload {
  filename: string;
  data: Buffer;
}

/**
 * Root-relative, under the path of the organization URL: parley mounted at /chat (with realm.url
 * https://host/chat) serves the image at /chat/user_avatars/..., where the client finds it.
 */
function emojiSourceUrl(realmUrl: string, fileName: string): string {
  const prefix = new URL(realmUrl).pathname.replace(/\/+$/, '');
  return `${prefix}/user_avatars/${REALM_ID}/emoji/images/${fileName}`;
}

function formatRealmEmoji(realmUrl: string, row: RealmEmojiRow): RealmEmoji {
  return {
    id: String(row.id),
    name: row.name,
    source_url: emojiSourceUrl(realmUrl, row.file_name),
    // No still frame is kept of animated images (Zulip serves one as still_url).
    still_url: null,
    deactivated: row.deactivated === 1,
    author_id: row.author_id,
  };
}

function allRealmEmoji(ctx: Ctx): Record<string, RealmEmoji> {
  const emoji: Record<string, RealmEmoji> = {};
  const realmUrl = getRealm(ctx).url;
  for (const row of selectRealmEmoji(ctx.store)) emoji[String(row.id)] = formatRealmEmoji(realmUrl, row);
  return emoji;
}

/** Zulip's check_valid_emoji_name. */
function checkValidEmojiName(name: string): void {
  if (name === '') throw badRequest('Emoji name is missing');
  if (/^[0-9a-z_-]+$/.test(name)) {
    if (/[0-9a-z]$/.test(name)) return;
    throw badRequest('Emoji names must end with either a letter or digit.');
  }
  throw badRequest('Emoji names must contain only lowercase English letters, digits, spaces, dashes, and underscores.');
}

function checkNameFree(ctx: Ctx, name: string): void {
  if (selectActiveRealmEmojiByName(ctx.store, name)) throw badRequest('A custom emoji with this name already exists.');
}

function mebibytes(bytes: number): string {
  return String(Number((bytes / (1024 * 1024)).toFixed(2)));
}

/** GET /realm/emoji: every custom emoji, deactivated ones included, keyed by id. */
export function listRealmEmoji(ctx: Ctx): { emoji: Record<string, RealmEmoji> } {
  return { emoji: allRealmEmoji(ctx) };
}

/** Who may add custom emoji: checked before an upload's body is read, and again by uploadRealmEmoji. */
export function checkMayUploadEmoji(actor: Actor): void {
  if (isGuest(actor)) throw badRequest('Not allowed for guest users');
  requireHuman(actor);
}

/** The largest custom emoji image, in bytes. */
export function emojiBytes(ctx: Ctx): number {
  return ctx.options.limits?.emojiBytes ?? DEFAULT_EMOJI_BYTES;
}

/**
 * POST /realm/emoji/{emoji_name}: members, moderators and administrators (not guests, not bots)
 * add an emoji; only administrators may shadow a Unicode emoji's name. The image type is
 * checked by its content and the image made 64x64, before the transaction (both asynchronous):
 * what is stored and served is that small image, never the upload.
 */
export async function uploadRealmEmoji(
  ctx: Ctx,
  actor: Actor,
  input: { emojiName: string; files: readonly EmojiUpload[] },
): Promise<Record<string, never>> {
  checkMayUploadEmoji(actor);
  // Zulip treats spaces as underscores.
  const name = input.emojiName.trim().replaceAll(' ', '_');
  checkValidEmojiName(name);
  checkNameFree(ctx, name);
  if (input.files.length !== 1) throw badRequest('You must upload exactly one file.');
  if (unicodeEmoji().nameToCode.has(name) && !isAdmin(actor)) throw badRequest('Only administrators can override default emoji.');
  const file = input.files[0]!;
  const limit = emojiBytes(ctx);
  if (file.data.length > limit) throw badRequest(`Uploaded file is larger than the allowed limit of ${mebibytes(limit)} MiB`);
  const sniffed = await fileTypeFromBuffer(file.data);
  const format = sniffed ? IMAGE_FORMATS[sniffed.mime] : undefined;
  if (!format) throw badRequest('Invalid image format');
  const image = await emojiImage(file.data, format.container);
  return ctx.tx(() => {
    // Again under the write lock: another upload may have taken the name while the image was checked.
    checkNameFree(ctx, name);
    insertRealmEmoji(ctx.store, {
      name,
      author_id: actor.id,
      file_name: `${ctx.random(8).toString('hex')}.${format.ext}`,
      content_type: format.contentType,
      image,
      date_created: ctx.now(),
    });
    emit(ctx, null, { type: 'realm_emoji', op: 'update', realm_emoji: allRealmEmoji(ctx) });
    return {};
  });
}

/** DELETE /realm/emoji/{emoji_name}: administrators, or the emoji's author, deactivate it. */
export function deactivateRealmEmoji(ctx: Ctx, actor: Actor, input: { emojiName: string }): Record<string, never> {
  return ctx.tx(() => {
    const emoji = selectActiveRealmEmojiByName(ctx.store, input.emojiName);
    if (!emoji) throw notFound(`Emoji '${input.emojiName}' does not exist`);
    if (!isAdmin(actor) && emoji.author_id !== actor.id) {
      throw badRequest('Must be an organization administrator or emoji author');
    }
    updateRealmEmojiDeactivated(ctx.store, emoji.id);
    emit(ctx, null, { type: 'realm_emoji', op: 'update', realm_emoji: allRealmEmoji(ctx) });
    return {};
  });
}

/** The image at a source_url (deactivated emoji included: old messages still show them). */
export function getRealmEmojiImage(ctx: Ctx, input: { realmId: number; fileName: string }): { contentType: string; image: Buffer } {
  const found = input.realmId === REALM_ID ? selectRealmEmojiImage(ctx.store, input.fileName) : undefined;
  if (!found) throw new ApiError('NOT_FOUND', 'Not Found');
  return { contentType: found.content_type, image: found.image };
}

/** POST /register state for this feature. */
export function fetchRealmEmojiState(ctx: Ctx, _actor: Actor, _options: StateOptions): RealmEmojiState {
  return { realm_emoji: allRealmEmoji(ctx) };
}
