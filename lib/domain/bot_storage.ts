// A bot's key-value storage (Zulip's zerver/lib/bot_storage.py): GET, PUT and DELETE /bot_storage.
// Zulip refuses no caller: a human's entries are kept under their own id like a bot's.
import { z } from 'zod';
import type { Ctx } from '../context.js';
import { badRequest } from '../errors.js';
import { deleteBotStorageKey, selectBotStorage, selectBotStorageSize, upsertBotStorage } from '../store/bot_storage.js';
import type { Actor } from './roles.js';

/** Zulip's USER_STATE_SIZE_LIMIT: characters of every key and value of one user's storage. */
const DEFAULT_BOT_STORAGE_CHARACTERS = 10_000_000;

/** GET /bot_storage: the asked entries. */
export const botStorageSchema = z.object({ storage: z.record(z.string(), z.string()) });
type BotStorage = z.infer<typeof botStorageSchema>;

const keyMissing = () => badRequest('Key does not exist.');

/** Characters as SQLite's length() and Python's len() count them: code points. */
const codePoints = (text: string): number => {
  let n = 0;
  for (const _ of text) n++;
  return n;
};

function entries(ctx: Ctx, actor: Actor): Map<string, string> {
  return new Map(selectBotStorage(ctx.store, actor.id).map((row) => [row.key, row.value]));
}

/** PUT /bot_storage: sets every entry, or none when the storage would pass its limit. */
export function updateBotStorage(ctx: Ctx, actor: Actor, input: { storage: Readonly<Record<string, string>> }): Record<string, never> {
  return ctx.tx(() => {
    const current = entries(ctx, actor);
    let size = selectBotStorageSize(ctx.store, actor.id);
    for (const [key, value] of Object.entries(input.storage)) {
      const old = current.get(key);
      size += codePoints(key) + codePoints(value) - (old === undefined ? 0 : codePoints(key) + codePoints(old));
      current.set(key, value);
    }
    const limit = ctx.options.limits?.botStorageCharacters ?? DEFAULT_BOT_STORAGE_CHARACTERS;
    if (size > limit) {
      throw badRequest(`Request exceeds storage limit by ${size - limit} characters. The limit is ${limit} characters.`);
    }
    for (const [key, value] of Object.entries(input.storage)) upsertBotStorage(ctx.store, actor.id, key, value);
    return {};
  });
}

/** GET /bot_storage: the given keys' values (every entry without keys, or with an empty list, as Zulip). */
export function getBotStorage(ctx: Ctx, actor: Actor, input: { keys?: readonly string[] | undefined }): BotStorage {
  const current = entries(ctx, actor);
  const keys = input.keys !== undefined && input.keys.length > 0 ? input.keys : [...current.keys()];
  const storage: Record<string, string> = {};
  for (const key of keys) {
    const value = current.get(key);
    if (value === undefined) throw keyMissing();
    storage[key] = value;
  }
  return { storage };
}

/** DELETE /bot_storage: removes the given keys (every entry without keys), or nothing when one is missing. */
export function removeBotStorage(ctx: Ctx, actor: Actor, input: { keys?: readonly string[] | undefined }): Record<string, never> {
  return ctx.tx(() => {
    const keys = input.keys !== undefined && input.keys.length > 0 ? [...new Set(input.keys)] : [...entries(ctx, actor).keys()];
    for (const key of keys) {
      // Rolls back the keys removed before it.
      if (deleteBotStorageKey(ctx.store, actor.id, key) === 0) throw keyMissing();
    }
    return {};
  });
}
