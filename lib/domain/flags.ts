// Personal message flags: the bit of each flag in the bit field lib/store/user_message.ts reads
// and writes (Zulip's ALL_FLAGS order; starred is stored in its own column) and the flag list
// the API reports, including the deprecated wildcard_mentioned.
import { z } from 'zod';

/** Zulip's UserMessage.ALL_FLAGS, in bit order: bit i is ALL_FLAGS[i]. */
export const ALL_FLAGS = [
  'read',
  'starred',
  'collapsed',
  'mentioned',
  'stream_wildcard_mentioned',
  'topic_wildcard_mentioned',
  'group_mentioned',
  'force_expand',
  'force_collapse',
  'has_alert_word',
  'historical',
  'is_private',
  'active_mobile_push_notification',
] as const;

export type FlagName = (typeof ALL_FLAGS)[number];

export const FLAG = Object.fromEntries(ALL_FLAGS.map((name, bit) => [name, 1 << bit])) as Record<FlagName, number>;

const NON_API = ['is_private', 'active_mobile_push_notification'] as const;

/** Flags never shown to clients (Zulip's NON_API_FLAGS). */
export const NON_API_FLAGS: ReadonlySet<FlagName> = new Set(NON_API);

const NON_EDITABLE = [
  'has_alert_word',
  'mentioned',
  'stream_wildcard_mentioned',
  'topic_wildcard_mentioned',
  'group_mentioned',
  'historical',
  'force_expand',
  'force_collapse',
] as const;

/** Flags that only a message send or edit changes (Zulip's NON_EDITABLE_FLAGS). */
export const NON_EDITABLE_FLAGS: ReadonlySet<FlagName> = new Set(NON_EDITABLE);

/** Flags an edit recomputes from the new content. */
export const RENDERED_FLAGS = FLAG.mentioned | FLAG.stream_wildcard_mentioned | FLAG.topic_wildcard_mentioned | FLAG.has_alert_word;

const WILDCARD = FLAG.stream_wildcard_mentioned | FLAG.topic_wildcard_mentioned;

/** A flag as clients see it: ALL_FLAGS but NON_API_FLAGS, plus the deprecated wildcard_mentioned. */
export const apiFlagSchema = z.enum([...z.enum(ALL_FLAGS).exclude(NON_API).options, 'wildcard_mentioned']);
type ApiFlag = z.infer<typeof apiFlagSchema>;

/** The flags POST /messages/flags changes: API flags but NON_EDITABLE_FLAGS. */
export const editableFlagSchema = z.enum(ALL_FLAGS).exclude([...NON_API, ...NON_EDITABLE]);
export type EditableFlag = z.infer<typeof editableFlagSchema>;

/** The API flag list of a bit field; `wildcard_mentioned` is either wildcard flag (Zulip's flag list: https://zulip.com/api/update-message-flags#available-flags). */
export function flagList(bits: number): ApiFlag[] {
  const names: ApiFlag[] = [];
  ALL_FLAGS.forEach((name, bit) => {
    if (bits & (1 << bit) && !NON_API_FLAGS.has(name)) names.push(name as ApiFlag);
  });
  if (bits & WILDCARD) names.push('wildcard_mentioned');
  return names;
}

/** Flags of a message the user has no row for but may read (Zulip: read and historical). */
export const HISTORICAL_FLAGS = FLAG.read | FLAG.historical;
