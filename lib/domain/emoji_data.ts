// The file at server_emoji_data_url (POST /register): {"code_to_names": {...}} for every Unicode
// emoji parley accepts, the canonical name first (Zulip's emoji_api.json). Its name carries a hash
// of its content, so caches may keep it for good and a new emoji set gets a new URL.
import { createHash } from 'node:crypto';
import type { Ctx } from '../context.js';
import { ApiError } from '../errors.js';
import { unicodeEmoji } from './emoji.js';
import { getRealm } from './realm.js';

const EMOJI_DATA_PATH = '/static/generated/emoji';

export interface EmojiDataFile {
  fileName: string;
  body: string;
}

const EMOJI_DATA = Symbol('emoji data file');

function emojiDataFile(ctx: Ctx): EmojiDataFile {
  return ctx.once(EMOJI_DATA, () => {
    const body = JSON.stringify({ code_to_names: Object.fromEntries(unicodeEmoji(ctx).codeToNames) });
    const hash = createHash('sha256').update(body).digest('hex').slice(0, 16);
    return { fileName: `emoji_api.${hash}.json`, body };
  });
}

/** server_emoji_data_url: absolute, under the organization URL (clients fetch it without credentials). */
export function emojiDataUrl(ctx: Ctx): string {
  return `${getRealm(ctx).url}${EMOJI_DATA_PATH}/${emojiDataFile(ctx).fileName}`;
}

/** GET /static/generated/emoji/{file_name}: the current file; any other name is not found. */
export function getEmojiDataFile(ctx: Ctx, fileName: string): EmojiDataFile {
  const file = emojiDataFile(ctx);
  if (fileName !== file.fileName) throw new ApiError('NOT_FOUND', 'Not Found');
  return file;
}
