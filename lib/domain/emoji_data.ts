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

let made: EmojiDataFile | undefined;

/** Made once per process, like the tables it is made from (lib/render/emoji.ts). */
function emojiDataFile(): EmojiDataFile {
  if (made === undefined) {
    const body = JSON.stringify({ code_to_names: Object.fromEntries(unicodeEmoji().codeToNames) });
    const hash = createHash('sha256').update(body).digest('hex').slice(0, 16);
    made = { fileName: `emoji_api.${hash}.json`, body };
  }
  return made;
}

/** server_emoji_data_url: absolute, under the organization URL (clients fetch it without credentials). */
export function emojiDataUrl(ctx: Ctx): string {
  return `${getRealm(ctx).url}${EMOJI_DATA_PATH}/${emojiDataFile().fileName}`;
}

/** GET /static/generated/emoji/{file_name}: the current file; any other name is not found. */
export function getEmojiDataFile(fileName: string): EmojiDataFile {
  const file = emojiDataFile();
  if (fileName !== file.fileName) throw new ApiError('NOT_FOUND', 'Not Found');
  return file;
}
