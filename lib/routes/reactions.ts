// Emoji reactions: POST and DELETE /messages/{message_id}/reactions.
import { addReaction, removeReaction } from '../domain/reactions.js';
import { pathInt, str } from '../http/params.js';
import { noFields, route } from './route.js';

const emoji = {
  emoji_code: str().optional().describe('The emoji within its type: a Unicode code point sequence, a custom emoji id, or `zulip`'),
  reaction_type: str().optional().describe('unicode_emoji, realm_emoji or zulip_extra_emoji (service_extra_emoji is accepted too)'),
};

export const reactionRoutes = {
  add: route({
    method: 'POST',
    path: '/messages/:message_id/reactions',
    transactional: true,
    access: 'user',
    summary: 'Add an emoji reaction to a message',
    params: { message_id: pathInt(), emoji_name: str(), ...emoji },
    response: noFields,
    errors: ['BAD_REQUEST', 'REACTION_ALREADY_EXISTS'],
    handler: (ctx, actor, p) =>
      addReaction(ctx, actor, { messageId: p.message_id, emojiName: p.emoji_name, emojiCode: p.emoji_code, reactionType: p.reaction_type }),
  }),
  remove: route({
    method: 'DELETE',
    path: '/messages/:message_id/reactions',
    transactional: true,
    access: 'user',
    summary: "Remove one's emoji reaction from a message, named by emoji_code or emoji_name",
    params: { message_id: pathInt(), emoji_name: str().optional(), ...emoji },
    response: noFields,
    errors: ['BAD_REQUEST', 'REACTION_DOES_NOT_EXIST'],
    handler: (ctx, actor, p) =>
      removeReaction(ctx, actor, { messageId: p.message_id, emojiName: p.emoji_name, emojiCode: p.emoji_code, reactionType: p.reaction_type }),
  }),
};
