// The permission matrix: for every `METHOD path` of the route table, one representative request
// and the answer each kind of caller gets (Zulip's decorators and access checks, the API
// document's rules). test/permissions.test.ts runs it; a route missing here fails the suite.
import { createECDH, randomBytes } from 'node:crypto';
import type { TestServer, TestUser } from './helpers.js';
import { keyParams, newPhone, tokenParams, type StandInBouncer } from './bouncer.js';
import { storedKeyCamoPath } from './image_host.js';
import { activeDevice } from './push_helpers.js';
import { IMAGES, uploadEmoji } from './user_status_helpers.js';
import { emojiDataUrl } from '../lib/domain/emoji_data.js';
import { CHANNEL_MATRIX } from './permission_matrix_channels.js';
import { ACCOUNT_MATRIX } from './permission_matrix_accounts.js';
import { contextOf } from '../lib/context.js';

export const ROLES = ['owner', 'admin', 'moderator', 'member', 'guest', 'bot'] as const;
export type Role = (typeof ROLES)[number];

export type Expected = 'ok' | { status: number; code: string; msg: string; [extra: string]: unknown };
export type Expectations = Record<Role, Expected>;

export interface Env {
  s: TestServer;
  bouncer: StandInBouncer;
  /** A public channel the owner is subscribed to, with one message from the owner. */
  channel: { name: string; id: number; messageId: number };
  /** A custom emoji uploaded by the owner. */
  emoji: { name: string; fileName: string };
  /** A fresh member to act on. */
  target(): Promise<TestUser>;
  unique(prefix: string): string;
}

/** The world the matrix's requests act in: a channel `name` with one message, a custom emoji. */
export async function matrixEnv(s: TestServer, bouncer: StandInBouncer, name: string): Promise<Env> {
  let counter = 0;
  s.chat.api.streams.subscribe(s.owner.user_id, { subscriptions: [{ name }] });
  const id = s.chat.api.streams.getId(s.owner.user_id, { stream: name }).stream_id;
  const messageId = s.chat.api.messages.send(s.owner.user_id, { type: 'stream', to: name, topic: 'matrix', content: 'public' }).id;
  await uploadEmoji(s, s.owner, `${name}_emoji`, [{ filename: 'e.png', data: IMAGES.png }]);
  const emoji = Object.values(s.chat.api.realmEmoji.list(s.owner.user_id).emoji).find((e) => e.name === `${name}_emoji`)!;
  return {
    s,
    bouncer,
    channel: { name, id, messageId },
    emoji: { name: emoji.name, fileName: emoji.source_url.split('/').at(-1)! },
    target: () => s.user('member'),
    unique: (prefix) => `${prefix}${(counter += 1)}`,
  };
}

export interface MatrixRequest {
  path: string;
  params?: Record<string, unknown>;
  /** A multipart body with one PNG file (custom emoji uploads). */
  upload?: boolean;
}

export interface MatrixEntry {
  request(env: Env, caller: TestUser, role: Role): MatrixRequest | Promise<MatrixRequest>;
  expect: Expectations;
}

const bad = (msg: string): Expected => ({ status: 400, code: 'BAD_REQUEST', msg });
const NOT_ADMIN: Expected = { status: 400, code: 'UNAUTHORIZED_PRINCIPAL', msg: 'Must be an organization administrator' };
const INSUFFICIENT = bad('Insufficient permission');
const NO_BOTS = bad('This endpoint does not accept bot requests.');
const NO_GUESTS = bad('Not allowed for guest users');

const everyone: Expectations = { owner: 'ok', admin: 'ok', moderator: 'ok', member: 'ok', guest: 'ok', bot: 'ok' };
const but = (overrides: Partial<Expectations>): Expectations => ({ ...everyone, ...overrides });
/** Owners and administrators; everyone else (bots have the member role) gets `refusal`. */
const admins = (refusal: Expected): Expectations => ({ ...everyone, moderator: refusal, member: refusal, guest: refusal, bot: refusal });

async function register(env: Env, caller: TestUser): Promise<{ queue_id: string; last_event_id: number }> {
  return (await env.s.request('POST', '/register', { as: caller, params: { event_types: ['drafts'] } })).body as { queue_id: string; last_event_id: number };
}

/** A browser's push subscription (a fresh endpoint and P-256 key each time). */
function browserSubscription(): { endpoint: string; p256dh: string; auth: string } {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  return { endpoint: `https://push.example.com/send/${randomBytes(8).toString('hex')}`, p256dh: ecdh.getPublicKey('base64url'), auth: randomBytes(16).toString('base64url') };
}

function draftOf(env: Env, caller: TestUser): number {
  return env.s.chat.api.drafts.create(caller.user_id, { drafts: [{ type: '', to: [], topic: '', content: 'mine' }] }).ids[0]!;
}

function viewOf(env: Env, caller: TestUser): string {
  const fragment = `narrow/${env.unique('view')}`;
  env.s.chat.api.navigationViews.create(caller.user_id, { fragment, isPinned: true, name: env.unique('View') });
  return fragment;
}

function linkifier(env: Env): number {
  const prefix = env.unique('L').replace(/\W/g, '');
  return env.s.chat.api.linkifiers.add(env.s.owner.user_id, { pattern: `${prefix}-(?P<id>[0-9]+)`, urlTemplate: 'https://example.com/{id}' }).id;
}

function directMessage(env: Env, from: TestUser): number {
  return env.s.chat.api.messages.send(from.user_id, { type: 'direct', to: [env.s.owner.user_id], content: 'a direct message' }).id;
}

async function botOfTarget(env: Env): Promise<number> {
  const owner = await env.target();
  return (await env.s.chat.api.users.createBot(owner.user_id, { fullName: 'Matrix Bot', shortName: env.unique('matrix') })).user_id as number;
}

function ownerChannelMessage(env: Env): number {
  return env.s.chat.api.messages.send(env.s.owner.user_id, { type: 'stream', to: env.channel.name, topic: 'deletes', content: 'delete me' }).id;
}

/** A file the caller uploaded (in-process; its URL is root-relative, outside /api/v1). */
function uploadOf(env: Env, caller: TestUser): Promise<{ url: string }> {
  return env.s.chat.api.uploads.upload(caller.user_id, { files: [{ field: 'file', filename: 'm.txt', mimetype: 'text/plain', data: Buffer.from('matrix') }] });
}

const newLinkifier = (env: Env) => ({ pattern: `${env.unique('P').replace(/\W/g, '')}-(?P<id>[0-9]+)`, url_template: 'https://example.com/{id}' });

export const MATRIX: Record<string, MatrixEntry> = {
  'GET /server_settings': { request: () => ({ path: '/server_settings' }), expect: everyone },
  'POST /fetch_api_key': {
    request: (env) => ({ path: '/fetch_api_key', params: { username: env.s.owner.email, password: 'owner-password' } }),
    expect: everyone,
  },
  'GET /users/me': { request: () => ({ path: '/users/me' }), expect: everyone },
  'GET /users': { request: () => ({ path: '/users' }), expect: everyone },
  'GET /users/:user_id': { request: async (env) => ({ path: `/users/${(await env.target()).user_id}` }), expect: everyone },
  'POST /users': {
    request: (env) => ({ path: '/users', params: { email: `${env.unique('new')}@example.com`, password: 'pw-pw-pw', full_name: 'New Person' } }),
    expect: admins(NOT_ADMIN),
  },
  'PATCH /users/:user_id': {
    request: async (env) => ({ path: `/users/${(await env.target()).user_id}`, params: { full_name: 'Renamed Person' } }),
    expect: admins(INSUFFICIENT),
  },
  'DELETE /users/:user_id': { request: async (env) => ({ path: `/users/${(await env.target()).user_id}` }), expect: admins(INSUFFICIENT) },
  // Each caller is a fresh account, and other owners remain.
  'DELETE /users/me': { request: () => ({ path: '/users/me' }), expect: everyone },
  'POST /users/:user_id/reactivate': {
    request: async (env) => {
      const target = await env.target();
      env.s.chat.admin.deactivateUser(target.user_id);
      return { path: `/users/${target.user_id}/reactivate` };
    },
    expect: admins(INSUFFICIENT),
  },
  'POST /users/me/api_key/regenerate': { request: () => ({ path: '/users/me/api_key/regenerate' }), expect: but({ bot: NO_BOTS }) },
  'POST /bots': {
    request: (env) => ({ path: '/bots', params: { full_name: 'Helper Bot', short_name: env.unique('helper') } }),
    expect: but({ guest: NO_GUESTS, bot: NO_BOTS }),
  },
  'GET /bots': { request: () => ({ path: '/bots' }), expect: but({ guest: NO_GUESTS, bot: NO_BOTS }) },
  // Another member's bot: its owner (not a caller here) or an administrator may act on it.
  'PATCH /bots/:bot_id': {
    request: async (env) => ({ path: `/bots/${await botOfTarget(env)}`, params: { full_name: 'Renamed Bot' } }),
    expect: { ...admins(INSUFFICIENT), guest: NO_GUESTS, bot: NO_BOTS },
  },
  'DELETE /bots/:bot_id': { request: async (env) => ({ path: `/bots/${await botOfTarget(env)}` }), expect: admins(INSUFFICIENT) },
  'POST /bots/:bot_id/api_key/regenerate': {
    request: async (env) => ({ path: `/bots/${await botOfTarget(env)}/api_key/regenerate` }),
    expect: { ...admins(INSUFFICIENT), guest: NO_GUESTS, bot: NO_BOTS },
  },
  'POST /register': { request: () => ({ path: '/register' }), expect: everyone },
  'GET /events': {
    request: async (env, caller) => {
      const queue = await register(env, caller);
      return { path: '/events', params: { queue_id: queue.queue_id, last_event_id: queue.last_event_id, dont_block: true } };
    },
    expect: everyone,
  },
  'DELETE /events': { request: async (env, caller) => ({ path: '/events', params: { queue_id: (await register(env, caller)).queue_id } }), expect: everyone },
  'POST /users/me/subscriptions': {
    request: (env) => ({ path: '/users/me/subscriptions', params: { subscriptions: [{ name: env.unique('channel') }] } }),
    expect: but({ guest: NO_GUESTS }),
  },
  'DELETE /users/me/subscriptions': {
    request: (env, caller) => {
      env.s.chat.api.streams.subscribe(env.s.owner.user_id, { subscriptions: [{ name: env.channel.name }], principals: [caller.user_id] });
      return { path: '/users/me/subscriptions', params: { subscriptions: [env.channel.name] } };
    },
    expect: everyone,
  },
  'GET /users/me/subscriptions': { request: () => ({ path: '/users/me/subscriptions' }), expect: everyone },
  'GET /streams': { request: () => ({ path: '/streams' }), expect: everyone },
  // Guests reach a public channel only through a subscription (Zulip's access_stream_by_id).
  'GET /streams/:stream_id': { request: (env) => ({ path: `/streams/${env.channel.id}` }), expect: but({ guest: bad('Invalid channel ID') }) },
  'GET /get_stream_id': {
    request: (env) => ({ path: '/get_stream_id', params: { stream: env.channel.name } }),
    expect: { ...everyone, guest: bad("Invalid channel name 'permissions'") },
  },
  'GET /users/me/:stream_id/topics': { request: (env) => ({ path: `/users/me/${env.channel.id}/topics` }), expect: but({ guest: bad('Invalid channel ID') }) },
  ...CHANNEL_MATRIX,
  ...ACCOUNT_MATRIX,
  'POST /user_groups/create': {
    request: (env, caller) => ({ path: '/user_groups/create', params: { name: env.unique('group'), description: 'd', members: [caller.user_id] } }),
    expect: but({ guest: NO_GUESTS, bot: NO_BOTS }),
  },
  'GET /user_groups': { request: () => ({ path: '/user_groups' }), expect: but({ guest: NO_GUESTS, bot: NO_BOTS }) },
  // A group the owner created: its creator and administrators manage its members.
  'POST /user_groups/:user_group_id/members': {
    request: async (env) => {
      const group = env.s.chat.api.userGroups.create(env.s.owner.user_id, { name: env.unique('group'), description: 'd', members: [] }).group_id;
      return { path: `/user_groups/${group}/members`, params: { add: [(await env.target()).user_id] } };
    },
    expect: { ...admins(INSUFFICIENT), guest: NO_GUESTS, bot: NO_BOTS },
  },
  'POST /messages': {
    request: (env) => ({ path: '/messages', params: { type: 'direct', to: [env.s.owner.user_id], content: 'hello' } }),
    expect: everyone,
  },
  'GET /messages': { request: () => ({ path: '/messages', params: { anchor: 'newest', num_before: 5, num_after: 0 } }), expect: everyone },
  // Zulip's webhook_view takes any account's key (HTTP Basic here); a Slack-format form body. Guests
  // post only where they are subscribed, so the caller is subscribed to the channel first.
  'POST /external/:integration': {
    request: (env, caller) => {
      env.s.chat.api.streams.subscribe(env.s.owner.user_id, { subscriptions: [{ name: env.channel.name }], principals: [caller.user_id] });
      return { path: '/external/slack_incoming', params: { stream: env.channel.name, topic: 'hooks', payload: JSON.stringify({ text: 'deployed *v2*' }) } };
    },
    expect: everyone,
  },
  // The owner's message in a public channel: guests who are not subscribed cannot read it.
  'GET /messages/:message_id': { request: (env) => ({ path: `/messages/${env.channel.messageId}` }), expect: but({ guest: bad('Invalid message(s)') }) },
  'PATCH /messages/:message_id': {
    request: (env, caller) => ({ path: `/messages/${directMessage(env, caller)}`, params: { content: 'edited' } }),
    expect: everyone,
  },
  // A fresh message of the owner's in a public channel: administrators delete anyone's messages;
  // others are refused, and guests (not subscribed) cannot read it.
  'DELETE /messages/:message_id': {
    request: (env) => ({ path: `/messages/${ownerChannelMessage(env)}` }),
    expect: { ...admins(bad("You don't have permission to delete this message")), guest: bad('Invalid message(s)') },
  },
  'GET /messages/:message_id/history': {
    request: (env) => ({ path: `/messages/${env.channel.messageId}/history` }),
    expect: but({ guest: bad('Invalid message(s)') }),
  },
  'POST /messages/render': { request: () => ({ path: '/messages/render', params: { content: '**bold**' } }), expect: everyone },
  'POST /messages/flags': {
    request: (env, caller) => ({ path: '/messages/flags', params: { messages: [directMessage(env, caller)], op: 'add', flag: 'starred' } }),
    expect: everyone,
  },
  'POST /messages/:message_id/reactions': {
    request: (env, caller) => ({ path: `/messages/${directMessage(env, caller)}/reactions`, params: { emoji_name: 'smile' } }),
    expect: everyone,
  },
  'DELETE /messages/:message_id/reactions': {
    request: (env, caller) => {
      const id = directMessage(env, caller);
      env.s.chat.api.reactions.add(caller.user_id, { messageId: id, emojiName: 'smile' });
      return { path: `/messages/${id}/reactions`, params: { emoji_name: 'smile' } };
    },
    expect: everyone,
  },
  'POST /messages/flags/narrow': {
    request: () => ({ path: '/messages/flags/narrow', params: { anchor: 'newest', num_before: 5, num_after: 0, narrow: [], op: 'add', flag: 'read' } }),
    expect: everyone,
  },
  'POST /mark_all_as_read': { request: () => ({ path: '/mark_all_as_read' }), expect: everyone },
  'POST /register_client_device': { request: () => ({ path: '/register_client_device' }), expect: everyone },
  'POST /remove_client_device': {
    request: (env, caller) => ({ path: '/remove_client_device', params: { device_id: env.s.chat.api.push.registerClientDevice(caller.user_id, {}).device_id } }),
    expect: everyone,
  },
  'POST /mobile_push/register': {
    request: (env, caller) => {
      const device = env.s.chat.api.push.registerClientDevice(caller.user_id, {}).device_id;
      const phone = newPhone();
      return { path: '/mobile_push/register', params: { device_id: device, ...keyParams(env.bouncer, phone), ...tokenParams(env.bouncer, phone) } };
    },
    expect: but({ bot: NO_BOTS }),
  },
  'POST /mobile_push/e2ee/test_notification': {
    request: async (env, caller, role) => {
      if (role === 'bot') return { path: '/mobile_push/e2ee/test_notification' };
      const { deviceId } = await activeDevice(env.s, caller, env.bouncer);
      return { path: '/mobile_push/e2ee/test_notification', params: { device_id: deviceId } };
    },
    expect: but({ bot: NO_BOTS }),
  },
  'PATCH /realm': { request: (env) => ({ path: '/realm', params: { description: env.unique('About us') } }), expect: admins(NOT_ADMIN) },
  'GET /web_push/key': { request: () => ({ path: '/web_push/key' }), expect: but({ bot: NO_BOTS }) },
  'POST /web_push/subscriptions': { request: () => ({ path: '/web_push/subscriptions', params: browserSubscription() }), expect: but({ bot: NO_BOTS }) },
  'DELETE /web_push/subscriptions': {
    request: (env, caller, role) => {
      const subscription = browserSubscription();
      if (role !== 'bot') env.s.chat.api.webPush.subscribe(caller.user_id, subscription);
      return { path: '/web_push/subscriptions', params: { endpoint: subscription.endpoint } };
    },
    expect: but({ bot: NO_BOTS }),
  },
  'GET /navigation_views': { request: () => ({ path: '/navigation_views' }), expect: everyone },
  'POST /navigation_views': {
    request: (env) => ({ path: '/navigation_views', params: { fragment: `narrow/${env.unique('v')}`, is_pinned: true, name: env.unique('Name') } }),
    expect: everyone,
  },
  'PATCH /navigation_views/*': { request: (env, caller) => ({ path: `/navigation_views/${viewOf(env, caller)}`, params: { is_pinned: false } }), expect: everyone },
  'DELETE /navigation_views/*': { request: (env, caller) => ({ path: `/navigation_views/${viewOf(env, caller)}` }), expect: everyone },
  'GET /drafts': { request: () => ({ path: '/drafts' }), expect: everyone },
  'POST /drafts': { request: () => ({ path: '/drafts', params: { drafts: [{ type: '', to: [], topic: '', content: 'draft' }] } }), expect: everyone },
  'PATCH /drafts/:draft_id': {
    request: (env, caller) => ({ path: `/drafts/${draftOf(env, caller)}`, params: { draft: { type: '', to: [], topic: '', content: 'changed' } } }),
    expect: everyone,
  },
  'DELETE /drafts/:draft_id': { request: (env, caller) => ({ path: `/drafts/${draftOf(env, caller)}` }), expect: everyone },
  'GET /users/me/alert_words': { request: () => ({ path: '/users/me/alert_words' }), expect: everyone },
  'POST /users/me/alert_words': { request: () => ({ path: '/users/me/alert_words', params: { alert_words: ['word'] } }), expect: everyone },
  'DELETE /users/me/alert_words': { request: () => ({ path: '/users/me/alert_words', params: { alert_words: ['word'] } }), expect: everyone },
  'PATCH /settings': { request: () => ({ path: '/settings', params: { email_address_visibility: 1 } }), expect: but({ bot: NO_BOTS }) },
  // Muting a fresh member, then unmuting one the caller muted.
  'POST /users/me/muted_users/:muted_user_id': { request: async (env) => ({ path: `/users/me/muted_users/${(await env.target()).user_id}` }), expect: everyone },
  'DELETE /users/me/muted_users/:muted_user_id': {
    request: async (env, caller) => {
      const target = await env.target();
      env.s.chat.api.mutedUsers.mute(caller.user_id, { mutedUserId: target.user_id });
      return { path: `/users/me/muted_users/${target.user_id}` };
    },
    expect: everyone,
  },
  // The owner's public channel: every caller may read it (guests: not subscribed, so no access).
  'POST /user_topics': {
    request: (env) => ({ path: '/user_topics', params: { stream_id: env.channel.id, topic: env.unique('t'), visibility_policy: 3 } }),
    expect: but({ guest: bad('Invalid channel ID') }),
  },
  'PATCH /users/me/subscriptions/muted_topics': {
    request: (env) => ({ path: '/users/me/subscriptions/muted_topics', params: { stream_id: env.channel.id, topic: env.unique('t'), op: 'add' } }),
    expect: but({ guest: bad('Invalid channel ID') }),
  },
  'POST /users/me/status': { request: () => ({ path: '/users/me/status', params: { status_text: 'busy' } }), expect: but({ bot: NO_BOTS }) },
  // administrators only; a bot with the member role is not one (FL 473).
  'POST /users/:user_id/status': {
    request: async (env) => ({ path: `/users/${(await env.target()).user_id}/status`, params: { status_text: 'in a meeting' } }),
    expect: admins(INSUFFICIENT),
  },
  'GET /users/:user_id/status': { request: async (env) => ({ path: `/users/${(await env.target()).user_id}/status` }), expect: everyone },
  'GET /realm/emoji': { request: () => ({ path: '/realm/emoji' }), expect: everyone },
  'POST /realm/emoji/*': { request: (env) => ({ path: `/realm/emoji/${env.unique('emoji').replace(/\W/g, '_')}`, upload: true }), expect: but({ guest: NO_GUESTS, bot: NO_BOTS }) },
  'DELETE /realm/emoji/*': {
    request: async (env) => {
      const name = env.unique('owned').replace(/\W/g, '_');
      await uploadEmoji(env.s, env.s.owner, name, [{ filename: 'e.png', data: IMAGES.png }]);
      return { path: `/realm/emoji/${name}` };
    },
    expect: admins(bad('Must be an organization administrator or emoji author')),
  },
  'GET /user_avatars/:realm_id/emoji/images/:file_name': { request: (env) => ({ path: `/user_avatars/1/emoji/images/${env.emoji.fileName}` }), expect: everyone },
  'GET /openapi.json': { request: () => ({ path: '/openapi.json' }), expect: everyone },
  // Everyone may upload, and download what they uploaded; bot storage is the caller's own.
  'POST /user_uploads': { request: () => ({ path: '/user_uploads', upload: true }), expect: everyone },
  'GET /user_uploads/:realm_id/*': { request: async (env, caller) => ({ path: (await uploadOf(env, caller)).url }), expect: everyone },
  'GET /user_uploads/:realm_id_str/*': { request: async (env, caller) => ({ path: (await uploadOf(env, caller)).url }), expect: everyone },
  'GET /user_uploads/temporary/:token/:filename': {
    request: async (env, caller) => {
      const [, , realmId, ...rest] = (await uploadOf(env, caller)).url.split('/');
      return { path: env.s.chat.api.uploads.temporaryUrl(caller.user_id, { realmIdStr: realmId!, filename: rest.join('/') }).url };
    },
    expect: everyone,
  },
  'GET /attachments': { request: () => ({ path: '/attachments' }), expect: everyone },
  'DELETE /attachments/:attachment_id': {
    request: async (env, caller) => {
      const { url } = await uploadOf(env, caller);
      const mine = env.s.chat.api.uploads.attachments(caller.user_id).attachments.find((a) => url.endsWith(a.path_id))!;
      return { path: `/attachments/${mine.id}` };
    },
    expect: everyone,
  },
  'GET /bot_storage': { request: () => ({ path: '/bot_storage' }), expect: everyone },
  'PUT /bot_storage': { request: () => ({ path: '/bot_storage', params: { storage: { counter: '1' } } }), expect: everyone },
  'DELETE /bot_storage': { request: () => ({ path: '/bot_storage' }), expect: everyone },
  'GET /static/generated/emoji/:file_name': { request: (env) => ({ path: new URL(emojiDataUrl(contextOf(env.s.chat))).pathname }), expect: everyone },
  // The signature is the permission: no credentials are read (the server's fetch is a stand-in).
  'GET /external_content/:digest/:hex_url': {
    request: (env) => ({ path: storedKeyCamoPath(env.s.db, 'https://images.example/cat.png') }),
    expect: everyone,
  },
  'POST /typing': { request: (env) => ({ path: '/typing', params: { op: 'start', to: [env.s.owner.user_id] } }), expect: everyone },
  // A message of the caller's own: only its sender may say they are editing it.
  'POST /messages/:message_id/typing': { request: (env, caller) => ({ path: `/messages/${directMessage(env, caller)}/typing`, params: { op: 'start' } }), expect: everyone },
  'POST /users/me/presence': { request: () => ({ path: '/users/me/presence', params: { status: 'active' } }), expect: but({ bot: NO_BOTS }) },
  'GET /realm/presence': { request: () => ({ path: '/realm/presence' }), expect: everyone },
  'GET /users/:user_id_or_email/presence': {
    request: (env) => {
      env.s.chat.api.presence.update(env.s.owner.user_id, { status: 'active', pingOnly: true });
      return { path: `/users/${env.s.owner.user_id}/presence` };
    },
    expect: everyone,
  },
  'GET /realm/linkifiers': { request: () => ({ path: '/realm/linkifiers' }), expect: everyone },
  'POST /realm/filters': { request: (env) => ({ path: '/realm/filters', params: newLinkifier(env) }), expect: admins(NOT_ADMIN) },
  'PATCH /realm/filters/:filter_id': { request: (env) => ({ path: `/realm/filters/${linkifier(env)}`, params: newLinkifier(env) }), expect: admins(NOT_ADMIN) },
  'DELETE /realm/filters/:filter_id': { request: (env) => ({ path: `/realm/filters/${linkifier(env)}` }), expect: admins(NOT_ADMIN) },
  'PATCH /realm/linkifiers': {
    request: (env) => {
      linkifier(env);
      const ids = env.s.chat.api.linkifiers.list(env.s.owner.user_id).linkifiers.map((l) => l.id);
      return { path: '/realm/linkifiers', params: { ordered_linkifier_ids: ids.reverse() } };
    },
    expect: admins(NOT_ADMIN),
  },
};
