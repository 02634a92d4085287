// The permission matrix's entries for channel administration, subscription settings, default
// channels and marking a channel or topic read (test/permission_matrix.ts spreads them in).
import type { TestUser } from './helpers.js';
import type { Env, Expectations, Expected, MatrixEntry } from './permission_matrix.js';

const bad = (msg: string): Expected => ({ status: 400, code: 'BAD_REQUEST', msg });
const NOT_ADMIN: Expected = { status: 400, code: 'UNAUTHORIZED_PRINCIPAL', msg: 'Must be an organization administrator' };
const INVALID_CHANNEL = bad('Invalid channel ID');
const NO_EMAIL = bad('This server does not receive email, so channels have no email address.');

const everyone: Expectations = { owner: 'ok', admin: 'ok', moderator: 'ok', member: 'ok', guest: 'ok', bot: 'ok' };
/** Guests reach a public channel only through a subscription (Zulip's access_stream_by_id). */
const notGuests: Expectations = { ...everyone, guest: INVALID_CHANNEL };
/** Owners and administrators; everyone else (bots have the member role) gets `refusal`. */
const admins = (refusal: Expected): Expectations => ({ ...everyone, moderator: refusal, member: refusal, guest: refusal, bot: refusal });
/** Administrators manage channels; others who can read the channel are told so, guests (not subscribed) that it does not exist. */
const channelAdmins: Expectations = { ...admins(NOT_ADMIN), guest: INVALID_CHANNEL };

/** A fresh public channel the owner created and is subscribed to. */
function ownerChannel(env: Env): number {
  const name = env.unique('admin-channel');
  env.s.chat.api.streams.subscribe(env.s.owner.user_id, { subscriptions: [{ name }] });
  return env.s.chat.api.streams.getId(env.s.owner.user_id, { stream: name }).stream_id;
}

/** The caller subscribed to the shared channel (by the owner, so guests too). */
function joinChannel(env: Env, caller: TestUser): void {
  env.s.chat.api.streams.subscribe(env.s.owner.user_id, { subscriptions: [{ name: env.channel.name }], principals: [caller.user_id] });
}

export const CHANNEL_MATRIX: Record<string, MatrixEntry> = {
  'PATCH /streams/:stream_id': { request: (env) => ({ path: `/streams/${ownerChannel(env)}`, params: { description: 'changed' } }), expect: channelAdmins },
  'DELETE /streams/:stream_id': { request: (env) => ({ path: `/streams/${ownerChannel(env)}` }), expect: channelAdmins },
  'GET /streams/:stream_id/members': { request: (env) => ({ path: `/streams/${env.channel.id}/members` }), expect: notGuests },
  // parley receives no email: an error for everyone who may read the channel.
  'GET /streams/:stream_id/email_address': {
    request: (env) => ({ path: `/streams/${env.channel.id}/email_address` }),
    expect: { owner: NO_EMAIL, admin: NO_EMAIL, moderator: NO_EMAIL, member: NO_EMAIL, guest: INVALID_CHANNEL, bot: NO_EMAIL },
  },
  'POST /users/me/subscriptions/properties': {
    request: (env, caller) => {
      joinChannel(env, caller);
      return { path: '/users/me/subscriptions/properties', params: { subscription_data: [{ stream_id: env.channel.id, property: 'color', value: '#123456' }] } };
    },
    expect: everyone,
  },
  'GET /users/:user_id/subscriptions/:stream_id': { request: (env) => ({ path: `/users/${env.s.owner.user_id}/subscriptions/${env.channel.id}` }), expect: notGuests },
  'GET /default_streams': { request: () => ({ path: '/default_streams' }), expect: everyone },
  'POST /default_streams': { request: (env) => ({ path: '/default_streams', params: { stream_id: ownerChannel(env) } }), expect: admins(NOT_ADMIN) },
  'DELETE /default_streams': { request: (env) => ({ path: '/default_streams', params: { stream_id: env.channel.id } }), expect: admins(NOT_ADMIN) },
  'POST /mark_stream_as_read': { request: (env) => ({ path: '/mark_stream_as_read', params: { stream_id: env.channel.id } }), expect: notGuests },
  // A topic the caller received a message in.
  'POST /mark_topic_as_read': {
    request: (env, caller) => {
      joinChannel(env, caller);
      env.s.chat.api.messages.send(env.s.owner.user_id, { type: 'stream', to: env.channel.name, topic: 'to read', content: 'unread' });
      return { path: '/mark_topic_as_read', params: { stream_id: env.channel.id, topic_name: 'to read' } };
    },
    expect: everyone,
  },
};
