// Rendering a message for sending, editing or POST /messages/render: Markdown with mentions and linkifiers, who is
// mentioned (group mentions expanded to members), and which recipients' alert words occur.
// Rendered once per message, never per recipient.
import { z } from 'zod';
import type { Ctx } from '../context.js';
import { AlertWordMatcher } from '../render/alert_words.js';
import { compileLinkifier, type CompiledLinkifier } from '../render/linkifier_patterns.js';
import { contentFeatures } from '../store/content_features.js';
import { selectLinkifiers } from '../store/linkifiers.js';
import { topicLinks } from '../render/topic_links.js';
import { renderMarkdown } from '../render/markdown.js';
import { markdownEmojiLookup } from './emoji.js';
import { mayMention, type MentionLookup, type MentionedUser } from '../render/mentions.js';
import {
  selectAlertWordPairs,
  selectGroupMemberIds,
  selectGroupNames,
  selectMentionableUsers,
  selectTopicSenderIds,
  type MentionableUser,
  type RenderedColumns,
} from '../store/messages.js';
import { imageProxySource } from './external_content.js';
import { FLAG } from './flags.js';
import type { Actor } from './roles.js';

export interface RenderedMessage {
  html: string;
  /** The message columns this render sets: the HTML, has_link, has_image, has_attachment. */
  columns: RenderedColumns;
  /** Directly mentioned users and the members of mentioned groups. */
  mentionedUserIds: Set<number>;
  /** Users mentioned by name (not through a group). */
  directMentionIds: Set<number>;
  /** Mentioned groups with their members (notifications name the smallest one a user is in). */
  mentionedGroups: { id: number; name: string; memberIds: number[] }[];
  /** Mentioned users that are generic bots: they get a row even when not subscribed (Zulip). */
  mentionedBotIds: Set<number>;
  streamWildcard: boolean;
  topicWildcard: boolean;
}

function mentionLookup(ctx: Ctx, content: string): { lookup: MentionLookup; users: Map<number, MentionableUser>; groupNames: Map<number, string> } {
  const may = mayMention(content);
  const byName = new Map<string, MentionedUser>();
  const byId = new Map<number, MentionedUser>();
  const users = new Map<number, MentionableUser>();
  if (may.users) {
    // Later ids win on duplicate names, as Zulip's name -> user dict does.
    for (const row of selectMentionableUsers(ctx.store)) {
      const user = { id: row.id, fullName: row.full_name };
      byName.set(row.full_name.toLowerCase(), user);
      byId.set(row.id, user);
      users.set(row.id, row);
    }
  }
  const groups = new Map<string, { id: number; name: string }>();
  if (may.groups) for (const group of selectGroupNames(ctx.store)) groups.set(group.name.toLowerCase(), group);
  return {
    users,
    groupNames: new Map([...groups.values()].map((group) => [group.id, group.name])),
    lookup: {
      userByName: (name) => byName.get(name.toLowerCase()),
      userById: (id) => byId.get(id),
      groupByName: (name) => groups.get(name.toLowerCase()),
    },
  };
}

export function renderMessage(ctx: Ctx, content: string): RenderedMessage {
  const { lookup, users, groupNames } = mentionLookup(ctx, content);
  const rendered = renderMarkdown({
    content,
    mentions: lookup,
    linkifiers: currentLinkifiers(ctx),
    imageProxy: imageProxySource(ctx),
    emoji: markdownEmojiLookup(ctx),
  });
  const mentioned = new Set(rendered.mentions.userIds);
  const directMentionIds = new Set(mentioned);
  const mentionedBotIds = new Set([...mentioned].filter((id) => users.get(id)?.bot_type === 1 && users.get(id)?.is_active === 1));
  const mentionedGroups: RenderedMessage['mentionedGroups'] = [];
  for (const groupId of rendered.mentions.groupIds) {
    const memberIds = selectGroupMemberIds(ctx.store, groupId);
    for (const userId of memberIds) mentioned.add(userId);
    mentionedGroups.push({ id: groupId, name: groupNames.get(groupId) ?? '', memberIds });
  }
  const has = contentFeatures(rendered.html);
  return {
    html: rendered.html,
    columns: { rendered_content: rendered.html, has_link: Number(has.link), has_image: Number(has.image), has_attachment: Number(has.attachment) },
    mentionedUserIds: mentioned,
    directMentionIds,
    mentionedGroups,
    mentionedBotIds,
    streamWildcard: rendered.mentions.streamWildcard,
    topicWildcard: rendered.mentions.topicWildcard,
  };
}

/** POST /messages/render: the HTML a message with this content would get. */
export const previewMessageAnswerSchema = z.object({ rendered: z.string() });

export function previewMessage(ctx: Ctx, _actor: Actor, input: { content: string }): z.infer<typeof previewMessageAnswerSchema> {
  return { rendered: renderMessage(ctx, input.content).html };
}

/** topic_links for a channel message's topic, as stored on the message. */
export function topicLinksJson(ctx: Ctx, topic: string): string {
  return JSON.stringify(topicLinks(topic, currentLinkifiers(ctx)));
}

/**
 * The organization's linkifiers in processing order, compiled: kept until any process changes a
 * linkifier (ctx.cached); unchanged linkifiers keep their compiled pattern across a reload.
 */
export function currentLinkifiers(ctx: Ctx): readonly CompiledLinkifier[] {
  return ctx.cached<readonly CompiledLinkifier[]>('linkifier', (cached) => {
    const previous = new Map((cached ?? []).map((l) => [`${l.id}\u0000${l.pattern}\u0000${l.urlTemplate}`, l]));
    return selectLinkifiers(ctx.store).map((row) => previous.get(`${row.id}\u0000${row.pattern}\u0000${row.url_template}`) ?? compileLinkifier(row));
  });
}

/** The organization's alert-word matcher, built again after any change to alert_word (any process). */
function alertWordMatcher(ctx: Ctx): AlertWordMatcher {
  return ctx.cached('alert_word', () => new AlertWordMatcher(selectAlertWordPairs(ctx.store)));
}

/**
 * The rendered flags of each recipient (mentioned, the wildcard flags, has_alert_word). Topic
 * participants, for @**topic**, are the topic's senders plus the sender (Zulip also counts
 * reactors; parley does not).
 */
export function renderedFlags(
  ctx: Ctx,
  rendered: RenderedMessage,
  content: string,
  recipients: readonly number[],
  topic: { streamId: number; topic: string; senderId: number } | undefined,
): Map<number, number> {
  const alerted = alertWordMatcher(ctx).usersIn(content, new Set(recipients));
  let participants: Set<number> | undefined;
  if (rendered.topicWildcard && topic) {
    participants = new Set(selectTopicSenderIds(ctx.store, topic.streamId, topic.topic));
    participants.add(topic.senderId);
  }
  const base = rendered.streamWildcard ? FLAG.stream_wildcard_mentioned : 0;
  const flags = new Map<number, number>();
  for (const userId of recipients) {
    let bits = base;
    if (rendered.mentionedUserIds.has(userId)) bits |= FLAG.mentioned;
    if (alerted.has(userId)) bits |= FLAG.has_alert_word;
    if (participants?.has(userId)) bits |= FLAG.topic_wildcard_mentioned;
    flags.set(userId, bits);
  }
  return flags;
}
