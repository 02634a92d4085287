// POST /register state of Zulip features parley does not have (custom profile fields, saved
// snippets, channel folders): the empty values Zulip sends for an
// organization that never used them, so that clients which require the keys can start.
import type { Ctx } from '../context.js';
import type { StateOptions } from './state_options.js';
import type { Actor } from './roles.js';

export function fetchCustomProfileFieldState(_ctx: Ctx, _actor: Actor, _options: StateOptions): Record<string, unknown> {
  return { custom_profile_fields: [] };
}

export function fetchSavedSnippetState(_ctx: Ctx, _actor: Actor, _options: StateOptions): Record<string, unknown> {
  return { saved_snippets: [] };
}

export function fetchChannelFolderState(_ctx: Ctx, _actor: Actor, _options: StateOptions): Record<string, unknown> {
  return { channel_folders: [] };
}
