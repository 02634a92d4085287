// Schema 24's data migration (lib/store/migrate_periods.ts), tested against the layout it replaces:
// an organization written with a row per recipient (today's layout: every channel small), taken
// back to schema 23, then opened by this parley, which gives its big channel's subscribers
// subscription periods and drops the rows that said only what a period says. Every user's
// messages, flags, unread state and narrows are the same after as before, and stay the same as
// those of a copy left in the old layout when both go on receiving, reading and starring. And
// Zulip's system groups, which schema 24 makes.
import { copyFileSync } from 'node:fs';
import t from 'tap';
import type Database from 'better-sqlite3';
import { createChatServer, type ChatServer } from '../lib/index.js';
import { silentLogger } from '../lib/logger.js';
import { SCHEMA_VERSION } from '../lib/store/migrations.js';
import { open, pragma, tempFile } from './store_helpers.js';
import { TO_VERSION_23 } from './schema_23.js';

t.setTimeout(600_000);

/** Every channel small: a row per recipient, as schema 23 stored every message. */
const ROWS_ONLY = { logger: silentLogger, largeChannelSubscribers: 1_000_000 };
const CROWD = 300;

interface World {
  owner: number;
  /** a reads in order, b out of order, c is mentioned and stars, d leaves and comes back, e is deactivated for a while, f joins late. */
  users: Record<'a' | 'b' | 'c' | 'd' | 'e' | 'f' | 'quiet', number>;
}

async function build(chat: ChatServer): Promise<World> {
  const owner = (await chat.admin.initOrganization({ email: 'owner@example.com', fullName: 'Owner', defaultChannels: false })).user_id;
  chat.api.streams.subscribe(owner, { subscriptions: [{ name: 'crowd' }, { name: 'small' }] });
  chat.api.streams.addDefaultStream(owner, { streamId: chat.api.streams.getId(owner, { stream: 'crowd' }).stream_id });
  const added = await chat.admin.addUsers(Array.from({ length: CROWD }, (_, i) => ({ email: `u${i}@example.com`, fullName: `User ${i}` })));
  const [a, b, c, d, e, f, quiet] = added.map((user) => user.user_id) as [number, number, number, number, number, number, number];
  chat.api.streams.subscribe(owner, { subscriptions: [{ name: 'small' }], principals: [a, b, c] });
  chat.api.alertWords.add(c, { alertWords: ['zebra'] });
  chat.api.streams.unsubscribe(f, { subscriptions: ['crowd'] });
  const send = (from: number, to: string, content: string, topic = 'talk') => chat.api.messages.send(from, { type: 'stream', to, topic, content }).id;
  const ids: number[] = [];
  for (let i = 0; i < 4; i++) ids.push(send(owner, 'crowd', `hello ${i}`));
  ids.push(send(a, 'crowd', 'hello @**User 2** about the zebra'));
  chat.api.streams.unsubscribe(d, { subscriptions: ['crowd'] });
  chat.admin.deactivateUser(e);
  ids.push(send(owner, 'crowd', 'while d is away', 'other'));
  ids.push(send(b, 'crowd', 'hello @**topic**', 'other'));
  chat.api.streams.subscribe(d, { subscriptions: [{ name: 'crowd' }] });
  chat.admin.reactivateUser(e);
  chat.api.streams.subscribe(f, { subscriptions: [{ name: 'crowd' }] });
  for (let i = 0; i < 4; i++) ids.push(send(owner, 'crowd', `later ${i}`));
  send(a, 'small', 'hello small');
  chat.api.messages.send(a, { type: 'direct', to: [b], content: 'hello b' });
  chat.api.messageFlags.update(a, { messages: ids.slice(0, 8), op: 'add', flag: 'read' });
  chat.api.messageFlags.update(b, { messages: [ids[1]!, ids[4]!, ids[9]!], op: 'add', flag: 'read' });
  chat.api.messageFlags.update(c, { messages: [ids[3]!, ids[4]!], op: 'add', flag: 'starred' });
  chat.api.messageFlags.update(d, { messages: [ids[5]!], op: 'add', flag: 'starred' });
  chat.api.messages.edit(owner, { messageId: ids[8]!, content: 'later 0, for @**User 1**' });
  chat.api.messages.delete(owner, { messageId: ids[10]! });
  return { owner, users: { a, b, c, d, e, f, quiet } };
}

/** What a user sees of their messages: the state of /register that depends on them, and narrows with flags. */
function seen(chat: ChatServer, userId: number): unknown {
  const state = chat.api.events.register(userId, { eventTypes: ['message', 'update_message_flags', 'starred_messages', 'recent_private_conversations'] }) as Record<string, unknown>;
  const page = (narrow: object[], anchor: string | number = 'newest') =>
    (chat.api.messages.list(userId, { anchor, numBefore: 100, numAfter: 100, narrow: narrow as never }).messages as { id: number; flags: string[] }[]).map((m) => [m.id, m.flags]);
  const crowd = chat.api.streams.getId(userId, { stream: 'crowd' }).stream_id;
  return {
    unread: state.unread_msgs,
    starred: state.starred_messages,
    max: state.max_message_id,
    conversations: state.recent_private_conversations,
    all: page([]),
    channel: page([{ operator: 'channel', operand: crowd }], 0),
    unreadNarrow: page([{ operator: 'is', operand: 'unread' }]),
    starredNarrow: page([{ operator: 'is', operand: 'starred' }]),
    mentioned: page([{ operator: 'is', operand: 'mentioned' }]),
    search: page([{ operator: 'search', operand: 'hello' }]),
    firstUnread: chat.api.messages.list(userId, { anchor: 'first_unread', numBefore: 0, numAfter: 0 }).anchor,
  };
}

function seenByAll(chat: ChatServer, world: World): Record<string, unknown> {
  return Object.fromEntries(Object.entries(world.users).map(([name, id]) => [name, seen(chat, id)]));
}

/** More of the same on either copy: sends (now by period on the migrated one), reads, stars. */
function goOn(chat: ChatServer, world: World): void {
  const { owner, users } = world;
  const sent = [1, 2, 3].map((i) => chat.api.messages.send(owner, { type: 'stream', to: 'crowd', topic: 'after', content: `after ${i} @**User 2**` }).id);
  chat.api.messageFlags.update(users.a, { messages: sent, op: 'add', flag: 'read' });
  chat.api.messageFlags.update(users.b, { messages: [sent[1]!], op: 'add', flag: 'read' });
  chat.api.messageFlags.update(users.quiet, { messages: [sent[0]!], op: 'add', flag: 'starred' });
  chat.api.messageFlags.update(users.a, { messages: [sent[0]!], op: 'remove', flag: 'read' });
  chat.api.messageFlags.markStreamAsRead(users.f, { streamId: chat.api.streams.getId(owner, { stream: 'crowd' }).stream_id });
}

t.test('schema 24: a big channel gets subscription periods and loses its default rows; what everyone has is the same, and stays so', async (t) => {
  const file = tempFile(t);
  const reference = tempFile(t, 'reference.db');
  let db: Database.Database = open(t, file);
  let chat = createChatServer(db, ROWS_ONLY);
  const world = await build(chat);
  const before = seenByAll(chat, world);
  await chat.close();
  db.close();
  copyFileSync(file, reference);
  db = open(t, file);
  db.exec(TO_VERSION_23);
  const rowsBefore = db.prepare('SELECT count(*) FROM user_message').pluck().get() as number;
  db.close();

  db = open(t, file);
  chat = createChatServer(db, { logger: silentLogger });
  t.teardown(() => chat.close());
  t.equal(pragma(db, 'user_version'), SCHEMA_VERSION);
  const rowsAfter = db.prepare('SELECT count(*) FROM user_message').pluck().get() as number;
  t.ok(rowsAfter < rowsBefore - 2000, `the rows that said what a period says are gone (${rowsBefore} -> ${rowsAfter})`);
  t.equal(db.prepare("SELECT count(*) FROM message m JOIN stream s ON s.id = m.stream_id WHERE s.name = 'crowd' AND m.by_period = 0").pluck().get(), 0, 'the big channel is had by period');
  t.equal(db.prepare("SELECT count(*) FROM message m JOIN stream s ON s.id = m.stream_id WHERE s.name = 'small' AND m.by_period = 1").pluck().get(), 0, 'a small one keeps its rows');
  t.same(seenByAll(chat, world), before, 'everyone has the same messages with the same flags');

  const old = createChatServer(open(t, reference), ROWS_ONLY);
  t.teardown(() => old.close());
  goOn(old, world);
  goOn(chat, world);
  t.same(seenByAll(chat, world), seenByAll(old, world), 'and after more sends, reads and stars, the same as a copy with a row per recipient');
});

t.test("schema 24: a database of schema 23 gets Zulip's system groups, which the delete settings name", async (t) => {
  const file = tempFile(t);
  let db: Database.Database = open(t, file);
  let chat = createChatServer(db, ROWS_ONLY);
  const owner = await chat.admin.initOrganization({ email: 'owner@example.com' });
  const guest = await chat.admin.addUser({ email: 'guest@example.com', fullName: 'Guest', role: 'guest' });
  chat.api.userGroups.create(owner.user_id, { name: 'crew', description: '', members: [guest.user_id] });
  await chat.close();
  db.close();
  db = open(t, file);
  db.exec(TO_VERSION_23);
  t.equal(db.prepare("SELECT count(*) FROM user_group WHERE name LIKE 'role:%'").pluck().get(), 0, 'schema 23 had none');
  db.close();

  db = open(t, file);
  chat = createChatServer(db, { logger: silentLogger });
  t.teardown(() => chat.close());
  const state = chat.api.events.register(guest.user_id, { eventTypes: ['realm', 'user_group'] }) as Record<string, any>;
  const byId = new Map<number, any>(state.realm_user_groups.map((g: any) => [g.id, g]));
  t.match(byId.get(state.realm_can_delete_own_message_group), { name: 'role:everyone', is_system_group: true, members: [guest.user_id] });
  t.match(byId.get(state.realm_can_delete_any_message_group), { name: 'role:administrators', is_system_group: true });
  t.match(state.realm_user_groups.find((g: any) => g.name === 'role:owners'), { members: [owner.user_id] });
  t.match(state.realm_user_groups.find((g: any) => g.name === 'crew'), { is_system_group: false, members: [guest.user_id] }, "the organization's own group is kept");
});
