// Which emoji a (name, code, reaction type) names: Zulip's get_emoji_data (lookup by name) and
// check_emoji_request (validation), shared by user status and anything else that stores emoji.
import type { Ctx } from '../context.js';
import { badRequest } from '../errors.js';
import { unicodeEmojiTables, type UnicodeEmojiTables } from '../render/emoji.js';
import { selectActiveRealmEmojiByName, selectRealmEmojiById } from '../store/realm_emoji.js';

/** The reaction types (https://zulip.com/api/add-reaction); `service_extra_emoji` is parley's name for Zulip's `zulip_extra_emoji`. */
export const REACTION_TYPE = {
  unicode: 'unicode_emoji',
  realm: 'realm_emoji',
  extra: 'service_extra_emoji',
} as const;

/** Zulip's spelling of the extra-emoji type, accepted everywhere `service_extra_emoji` is. */
export const ZULIP_EXTRA_EMOJI = 'zulip_extra_emoji';

/** The one built-in extra emoji; its code is its name (kept for Zulip clients). */
const EXTRA_EMOJI_NAME = 'zulip';

export const isExtraEmojiType = (type: string): boolean => type === REACTION_TYPE.extra || type === ZULIP_EXTRA_EMOJI;

/** Zulip's Unicode emoji names and codes. */
export function unicodeEmoji(): UnicodeEmojiTables {
  return unicodeEmojiTables();
}

/**
 * The `:name:` lookup of Markdown rendering: the Unicode code of a name. An active custom emoji of
 * that name is Zulip's choice there (an image parley does not render), so it stays text.
 */
export function markdownEmojiLookup(ctx: Ctx): (name: string) => string | undefined {
  const { nameToCode } = unicodeEmoji();
  return (name) => (selectActiveRealmEmojiByName(ctx.store, name) ? undefined : nameToCode.get(name));
}

export interface EmojiData {
  emojiCode: string;
  reactionType: string;
}

/** Looks a name up: an active custom emoji first, then the extra emoji, then Unicode. */
export function getEmojiData(ctx: Ctx, emojiName: string): EmojiData {
  const custom = selectActiveRealmEmojiByName(ctx.store, emojiName);
  if (custom) return { emojiCode: String(custom.id), reactionType: REACTION_TYPE.realm };
  if (emojiName === EXTRA_EMOJI_NAME) return { emojiCode: EXTRA_EMOJI_NAME, reactionType: REACTION_TYPE.extra };
  const code = unicodeEmoji().nameToCode.get(emojiName);
  if (code !== undefined) return { emojiCode: code, reactionType: REACTION_TYPE.unicode };
  throw badRequest(`Emoji '${emojiName}' does not exist`);
}

/** Checks that the code exists in the type's namespace and that the name matches it. */
export function checkEmojiRequest(ctx: Ctx, emojiName: string, emojiCode: string, reactionType: string): void {
  if (reactionType === REACTION_TYPE.realm) {
    // Custom emoji codes are their ids in decimal; anything else names no emoji.
    const custom = /^[1-9]\d{0,15}$/.test(emojiCode) ? selectRealmEmojiById(ctx.store, Number(emojiCode)) : undefined;
    if (!custom) throw badRequest('Invalid custom emoji.');
    if (custom.name !== emojiName) throw badRequest('Invalid custom emoji name.');
    if (custom.deactivated === 1) throw badRequest('This custom emoji has been deactivated.');
  } else if (isExtraEmojiType(reactionType)) {
    if (emojiCode !== EXTRA_EMOJI_NAME) throw badRequest('Invalid emoji code.');
    if (emojiName !== emojiCode) throw badRequest('Invalid emoji name.');
  } else if (reactionType === REACTION_TYPE.unicode) {
    const { codeToName, nameToCode } = unicodeEmoji();
    if (!codeToName.has(emojiCode)) throw badRequest('Invalid emoji code.');
    if (nameToCode.get(emojiName) !== emojiCode) throw badRequest('Invalid emoji name.');
  } else {
    throw badRequest('Invalid emoji type.');
  }
}
