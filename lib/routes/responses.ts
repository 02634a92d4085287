// Shapes of the answers several routes share (messages), as zod
// schemas for the OpenAPI document. The conformance tests (test/conformance.ts) check real
// answers against it.
import { z } from 'zod';
import { editHistoryEntrySchema } from '../domain/edit_history_dicts.js';
import { reactionSchema } from '../domain/reaction_dicts.js';

const id = z.int();

const directRecipient = z.object({ id, email: z.string(), full_name: z.string(), is_mirror_dummy: z.boolean() });

/** Zulip's message dictionary; edits, reactions and search add fields. */
export const messageSchema = z.looseObject({
  id,
  sender_id: id,
  content: z.string(),
  content_type: z.enum(['text/html', 'text/x-markdown']),
  recipient_id: id,
  timestamp: z.int(),
  client: z.string(),
  subject: z.string(),
  topic_links: z.array(z.object({ text: z.string(), url: z.string() })),
  is_me_message: z.boolean(),
  reactions: z.array(reactionSchema),
  submessages: z.array(z.unknown()),
  sender_full_name: z.string(),
  sender_email: z.string(),
  sender_realm_str: z.string(),
  avatar_url: z.string().nullable(),
  type: z.enum(['stream', 'private']),
  stream_id: id.optional().describe('Channel messages'),
  display_recipient: z.union([z.string(), z.array(directRecipient)]),
  flags: z.array(z.string()),
  last_edit_timestamp: z.int().optional().describe("When the message's content was last edited"),
  last_moved_timestamp: z.int().optional().describe('When the message last moved to another topic (not only resolved)'),
  edit_history: z.array(editHistoryEntrySchema).optional().describe('Edits and moves, newest first; absent when never edited'),
  match_content: z.string().optional().describe('Search narrows: the HTML content with matching words in <span class="highlight">'),
  match_subject: z.string().optional().describe('Search narrows: the HTML-escaped topic with matching words highlighted'),
});

/** Zulip's LARGER_THAN_MAX_MESSAGE_ID (anchor=newest) is above 2^53: a number, not an int. */
export const anchorSchema = z.number();
