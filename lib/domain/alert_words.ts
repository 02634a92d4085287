// Alert words (API document 2.6, 4.6): GET, POST and DELETE /users/me/alert_words; the
// `alert_words` event after every change and the `alert_words` register state.
import type { Ctx } from '../context.js';
import type { StateOptions } from '../events/state.js';
import { deleteAlertWord, insertAlertWord, selectAlertWordRows, selectAlertWords } from '../store/alert_words.js';
import type { Actor } from './roles.js';

/** Zulip's limit on one word, in code points, checked before stripping. */
export const MAX_ALERT_WORD_LENGTH = 100;

// Python's str.lower(), which Zulip compares with, is close enough to toLowerCase().
const fold = (word: string): string => word.toLowerCase();

export function listAlertWords(ctx: Ctx, actor: Actor): { alert_words: string[] } {
  return { alert_words: selectAlertWords(ctx.store, actor.id) };
}

function changed(ctx: Ctx, actor: Actor): { alert_words: string[] } {
  const words = selectAlertWords(ctx.store, actor.id);
  // Sent even when nothing changed, as Zulip does.
  ctx.events.append([actor.id], { type: 'alert_words', alert_words: words });
  return { alert_words: words };
}

/**
 * POST /users/me/alert_words: words are stripped and blanks dropped; a word already in the set
 * (case-insensitively) keeps its stored casing; within the request the last casing wins, at the
 * position of the first.
 */
export function addAlertWords(ctx: Ctx, actor: Actor, input: { alertWords: readonly string[] }): { alert_words: string[] } {
  const wanted = new Map<string, string>();
  for (const raw of input.alertWords) {
    const word = raw.trim();
    if (word !== '') wanted.set(fold(word), word);
  }
  return ctx.tx(() => {
    const existing = new Set(selectAlertWords(ctx.store, actor.id).map(fold));
    for (const [key, word] of wanted) {
      if (!existing.has(key)) insertAlertWord(ctx.store, actor.id, word);
    }
    return changed(ctx, actor);
  });
}

/** DELETE /users/me/alert_words: case-insensitive, taken as sent (no stripping); unknown words are ignored. */
export function removeAlertWords(ctx: Ctx, actor: Actor, input: { alertWords: readonly string[] }): { alert_words: string[] } {
  const unwanted = new Set(input.alertWords.map(fold));
  return ctx.tx(() => {
    for (const row of selectAlertWordRows(ctx.store, actor.id)) {
      if (unwanted.has(fold(row.word))) deleteAlertWord(ctx.store, row.id);
    }
    return changed(ctx, actor);
  });
}

/** POST /register state for this feature. */
export function fetchAlertWordState(ctx: Ctx, actor: Actor, _options: StateOptions): Record<string, unknown> {
  return listAlertWords(ctx, actor);
}
