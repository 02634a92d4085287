// POST /register state of Zulip features parley does not have (custom profile fields, saved
// snippets, channel folders): the empty values Zulip sends for an
// organization that never used them, so that clients which require the keys can start.
import { z } from 'zod';
import type { Ctx } from '../context.js';
import type { StateOptions } from './state_options.js';
import type { Actor } from './roles.js';

/** Always empty: parley has none of these. */
const none = z.array(z.never());

export const customProfileFieldStateSchema = z.object({ custom_profile_fields: none });

export function fetchCustomProfileFieldState(_ctx: Ctx, _actor: Actor, _options: StateOptions): z.infer<typeof customProfileFieldStateSchema> {
  return { custom_profile_fields: [] };
}

export const savedSnippetStateSchema = z.object({ saved_snippets: none });

export function fetchSavedSnippetState(_ctx: Ctx, _actor: Actor, _options: StateOptions): z.infer<typeof savedSnippetStateSchema> {
  return { saved_snippets: [] };
}

export const channelFolderStateSchema = z.object({ channel_folders: none });

export function fetchChannelFolderState(_ctx: Ctx, _actor: Actor, _options: StateOptions): z.infer<typeof channelFolderStateSchema> {
  return { channel_folders: [] };
}
