// Alert words (https://zulip.com/api/get-alert-words): GET, POST and DELETE /users/me/alert_words; the
// `alert_words` event after every change and the `alert_words` register state.
import type { Ctx } from '../context.js';
import type { StateOptions } from './state_options.js';
import { deleteAlertWord, insertAlertWord, selectAlertWordPairsOfUser, selectAlertWords } from '../store/alert_words.js';
import type { Actor } from './roles.js';
import { emit } from './event_types.js';
import type { AlertWords } from './user_dicts.js';

/** Zulip's limit on one word, in code points, checked before stripping. */
export const MAX_ALERT_WORD_LENGTH = 100;

// Python's str.lower(), which Zulip compares with, is close enough to toLowerCase().
const fold = (word: string): string => word.toLowerCase();

export function listAlertWords(ctx: Ctx, actor: Actor): AlertWords {
  return { alert_words: selectAlertWords(ctx.store, actor.id) };
}

/** Answers with the whole set and tells the user's clients; sent even when nothing changed, as Zulip does. */
function changed(ctx: Ctx, actor: Actor, words: string[]): AlertWords {
  emit(ctx, [actor.id], { type: 'alert_words', alert_words: words });
  return { alert_words: words };
}

/**
 * POST /users/me/alert_words: words are stripped and blanks dropped; a word already in the set
 * (case-insensitively) keeps its stored casing; within the request the last casing wins, at the
 * position of the first.
 */
export function addAlertWords(ctx: Ctx, actor: Actor, input: { alertWords: readonly string[] }): AlertWords {
  const wanted = new Map<string, string>();
  for (const raw of input.alertWords) {
    const word = raw.trim();
    if (word !== '') wanted.set(fold(word), word);
  }
  return ctx.tx(() => {
    const words = selectAlertWords(ctx.store, actor.id);
    const existing = new Set(words.map(fold));
    for (const [key, word] of wanted) {
      if (existing.has(key)) continue;
      insertAlertWord(ctx.store, actor.id, word);
      // New rows get higher ids, so they come last in the stored order too.
      words.push(word);
    }
    return changed(ctx, actor, words);
  });
}

/** DELETE /users/me/alert_words: case-insensitive, taken as sent (no stripping); unknown words are ignored. */
export function removeAlertWords(ctx: Ctx, actor: Actor, input: { alertWords: readonly string[] }): AlertWords {
  const unwanted = new Set(input.alertWords.map(fold));
  return ctx.tx(() => {
    const kept: string[] = [];
    for (const [id, word] of selectAlertWordPairsOfUser(ctx.store, actor.id)) {
      if (unwanted.has(fold(word))) deleteAlertWord(ctx.store, id);
      else kept.push(word);
    }
    return changed(ctx, actor, kept);
  });
}

/** POST /register state for this feature. */
export function fetchAlertWordState(ctx: Ctx, actor: Actor, _options: StateOptions): AlertWords {
  return listAlertWords(ctx, actor);
}
