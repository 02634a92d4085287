// Emoji reactions: POST and DELETE /messages/{message_id}/reactions.
import { addReaction, removeReaction } from '../domain/reactions.js';
import { pathInt, str } from '../http/params.js';
import { noFields, route } from './route.js';

const emoji = {
  emojiCode: str().optional().describe('The emoji within its type: a Unicode code point sequence, a custom emoji id, or `zulip`'),
  reactionType: str().optional().describe('unicode_emoji, realm_emoji or zulip_extra_emoji (service_extra_emoji is accepted too)'),
};

export const reactionRoutes = {
  add: route({
    method: 'POST',
    path: '/messages/:message_id/reactions',
    transactional: true,
    access: 'user',
    summary: 'Add an emoji reaction to a message',
    params: { messageId: pathInt(), emojiName: str(), ...emoji },
    response: noFields,
    errors: ['BAD_REQUEST', 'REACTION_ALREADY_EXISTS'],
    handler: (ctx, caller, p) => addReaction(ctx, caller, p),
  }),
  remove: route({
    method: 'DELETE',
    path: '/messages/:message_id/reactions',
    transactional: true,
    access: 'user',
    summary: "Remove one's emoji reaction from a message, named by emoji_code or emoji_name",
    params: { messageId: pathInt(), emojiName: str().optional(), ...emoji },
    response: noFields,
    errors: ['BAD_REQUEST', 'REACTION_DOES_NOT_EXIST'],
    handler: (ctx, caller, p) => removeReaction(ctx, caller, p),
  }),
};
