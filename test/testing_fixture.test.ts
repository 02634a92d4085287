// createTestChat(fixture): the organization a fixture describes, built through parley's own
// functions, as the API then reports it; the default fixture; fixture mistakes named clearly.
import t from 'tap';
import { createTestChat, type ChatFixture } from '../lib/testing/index.js';
import { contextOf } from '../lib/context.js';

t.test('without a fixture: an owner and parley\'s initial channels, on a clock at 2025-01-01', async (t) => {
  const chat = await createTestChat();
  t.teardown(() => chat.close());
  const { owner } = chat.users;
  t.match(owner, { key: 'owner', email: 'owner@example.com', full_name: 'Olivia Owner', api_key: /^[A-Za-z0-9]{32}$/ });
  t.match(chat.api.users.me(owner.user_id), { role: 100, is_owner: true, email: 'owner@example.com' });
  t.same(Object.keys(chat.channels).sort(), ['general', 'sandbox']);
  t.same(chat.api.streams.defaultStreams(owner.user_id).default_streams.sort(), [chat.channels.general.stream_id, chat.channels.sandbox.stream_id].sort());
  t.equal(chat.clock.now(), Date.parse('2025-01-01T00:00:00Z'));
  t.equal(chat.api.server.settings(null).realm_url, 'http://localhost:9991');
});

const fixture = {
  organization: { name: 'Elsinore', url: 'https://elsinore.example.com', emailAddressVisibility: 3 },
  users: {
    horatio: { fullName: 'Horatio', timezone: 'Europe/Copenhagen' },
    claudius: { role: 'owner', fullName: 'King Claudius', email: 'claudius@elsinore.example.com' },
    gertrude: { role: 'admin', id: 40 },
    polonius: { role: 'guest' },
    herald: { bot: 'incoming_webhook', owner: 'gertrude', fullName: 'Herald' },
    ghost: { bot: 'generic' },
  },
  channels: {
    battlements: { description: 'The **night** watch', subscribers: ['horatio', 'ghost'] },
    council: { private: true, subscribers: ['claudius', 'gertrude'] },
    court: { subscribers: 'everyone', default: true },
  },
  userGroups: { watch: { description: 'On the battlements', members: ['horatio'] } },
  messages: [
    { from: 'horatio', channel: 'battlements', topic: 'midnight', content: 'It harrows me with fear and wonder.' },
    { from: 'claudius', to: ['gertrude', 'polonius'], content: 'Our sometime sister, now our queen.' },
  ],
} as const satisfies ChatFixture;

t.test('a fixture: its users with their roles, bots, ids, emails and time zones, created first owner first', async (t) => {
  const chat = await createTestChat(fixture);
  t.teardown(() => chat.close());
  const { claudius, horatio, gertrude, polonius, herald, ghost } = chat.users;
  t.equal(claudius.user_id, 1, 'the first owner is the organization\'s first user');
  t.equal(horatio.user_id, 2, 'then the other humans in order');
  t.equal(gertrude.user_id, 40, 'a chosen id');
  t.equal(polonius.user_id, 41);
  t.equal(herald.user_id, 42, 'then the bots');
  t.match(horatio, { email: 'horatio@example.com', full_name: 'Horatio' });
  const members = new Map(chat.api.users.list(claudius.user_id).members.map((m) => [m.user_id, m]));
  t.match(members.get(claudius.user_id), { full_name: 'King Claudius', role: 100, delivery_email: 'claudius@elsinore.example.com' });
  t.match(members.get(gertrude.user_id), { full_name: 'Gertrude', role: 200, is_admin: true });
  t.match(members.get(polonius.user_id), { role: 600, is_guest: true });
  t.match(members.get(horatio.user_id), { timezone: 'Europe/Copenhagen' });
  t.match(members.get(herald.user_id), { is_bot: true, bot_type: 2, bot_owner_id: gertrude.user_id });
  t.match(members.get(ghost.user_id), { is_bot: true, bot_type: 1, bot_owner_id: claudius.user_id, full_name: 'Ghost' });
  const hidden = chat.api.users.get(horatio.user_id, { userId: polonius.user_id }) as { user: { email: string } };
  t.equal(hidden.user.email, `user${polonius.user_id}@elsinore.example.com`, 'emails hidden from members, as the organization says');
  t.match(chat.api.server.settings(null), { realm_name: 'Elsinore', realm_url: 'https://elsinore.example.com' });
  const response = await fetch(`${(await chat.listen()).url}/api/v1/users/me`, {
    headers: { authorization: 'Basic ' + Buffer.from(`${horatio.email}:${horatio.api_key}`).toString('base64') },
  });
  t.equal(response.status, 200, 'the API keys authenticate');
  t.equal(((await response.json()) as { user_id: number }).user_id, horatio.user_id);
});

t.test('a fixture: its channels, subscribers, privacy, default channels, groups and messages', async (t) => {
  const chat = await createTestChat(fixture);
  t.teardown(() => chat.close());
  const { claudius, horatio, gertrude, polonius, ghost } = chat.users;
  const { battlements, council, court } = chat.channels;
  t.same(chat.api.streams.members(claudius.user_id, { streamId: battlements.stream_id }).subscribers, [horatio.user_id, ghost.user_id]);
  t.same(chat.api.streams.members(claudius.user_id, { streamId: court.stream_id }).subscribers.sort((a, b) => a - b), [1, 2, 40, 41], 'everyone: every human');
  const streams = chat.api.streams.list(claudius.user_id, { includeAllActive: true }).streams;
  t.match(streams.find((s) => s.stream_id === council.stream_id), { name: 'council', invite_only: true, history_public_to_subscribers: false });
  t.match(streams.find((s) => s.stream_id === battlements.stream_id), { description: 'The **night** watch', rendered_description: '<p>The <strong>night</strong> watch</p>' });
  t.same(chat.api.streams.defaultStreams(claudius.user_id).default_streams, [court.stream_id]);
  const watch = chat.api.userGroups.list(claudius.user_id).user_groups.find((g) => g.name === 'watch');
  t.match(watch, { description: 'On the battlements', members: [horatio.user_id] });
  const [night] = chat.api.messages.list(horatio.user_id, { anchor: 'newest', numBefore: 5, numAfter: 0, narrow: [{ operator: 'channel', operand: 'battlements' }] }).messages;
  t.match(night, { subject: 'midnight', content: '<p>It harrows me with fear and wonder.</p>', sender_id: horatio.user_id });
  const [direct] = chat.api.messages.list(polonius.user_id, { anchor: 'newest', numBefore: 5, numAfter: 0, narrow: [{ operator: 'is', operand: 'dm' }] }).messages;
  t.match(direct, { sender_id: claudius.user_id, content: '<p>Our sometime sister, now our queen.</p>' });
  t.same((direct!.display_recipient as { id: number }[]).map((r) => r.id).sort((a, b) => a - b), [claudius.user_id, gertrude.user_id, polonius.user_id].sort((a, b) => a - b));
  const newcomer = await chat.admin.addUser({ email: 'laertes@example.com', fullName: 'Laertes' });
  t.same(chat.api.streams.listSubscriptions(newcomer.user_id).subscriptions.map((s) => s.name), ['court'], 'users made later join the default channels');
});

t.test('the events of building the fixture are not kept: nobody could ever receive them', async (t) => {
  const chat = await createTestChat(fixture);
  t.teardown(() => chat.close());
  t.equal(chat.db.prepare('SELECT count(*) FROM event').pluck().get(), 1, 'only the newest row, which keeps event ids from going back');
  const { horatio } = chat.users;
  const queue = chat.api.events.register(horatio.user_id, {});
  t.same((await chat.api.events.get(horatio.user_id, { queueId: queue.queue_id, lastEventId: -1, dontBlock: true })).events, []);
  t.equal(chat.db.pragma('freelist_count', { simple: true }), 0, 'and their pages were given back');
});

t.test('setup() runs after the rest, with the users and channels', async (t) => {
  let seen: string[] = [];
  const chat = await createTestChat({
    users: { owner: { role: 'owner' } },
    channels: { lobby: { subscribers: ['owner'] } },
    setup(chat, built) {
      seen = [...Object.keys(built.users), ...Object.keys(built.channels)];
      chat.api.alertWords.add(built.users.owner!.user_id, { alertWords: ['dagger'] });
    },
  });
  t.teardown(() => chat.close());
  t.same(seen, ['owner', 'lobby']);
  t.same(chat.api.alertWords.list(chat.users.owner.user_id).alert_words, ['dagger']);
  t.equal(chat.db.prepare('SELECT count(*) FROM event').pluck().get(), 1, "setup()'s events are dropped too");
});

t.test('when setup() subscribes, the events stay, and the subscriber receives those after its start', async (t) => {
  const received: string[] = [];
  const chat = await createTestChat({
    users: { owner: { role: 'owner' } },
    setup(chat, { users }) {
      chat.events.subscribe(users.owner!.user_id, (event) => received.push(event.type));
      chat.api.alertWords.add(users.owner!.user_id, { alertWords: ['dagger'] });
    },
  });
  t.teardown(() => chat.close());
  await new Promise((resolve) => setImmediate(resolve));
  t.same(received, ['alert_words']);
  t.ok((chat.db.prepare('SELECT count(*) FROM event').pluck().get() as number) > 1, 'nothing dropped');
});

t.test('fixture mistakes are named, and leave nothing open', async (t) => {
  await t.rejects(createTestChat({ users: { hamlet: {} } }), new Error('A fixture needs an owner: a user with role: "owner"'));
  await t.rejects(
    createTestChat({ users: { owner: { role: 'owner' } }, channels: { x: { subscribers: ['nobody'] } } }),
    new Error('The fixture names a user it does not define: nobody'),
  );
  await t.rejects(
    createTestChat({ users: { owner: { role: 'owner' } }, channels: { x: { subscribers: [] } } }),
    new Error('Channel x of the fixture needs a subscriber'),
  );
  await t.rejects(createTestChat({ users: { owner: { role: 'owner', id: 3 }, other: { id: 3 } } }), new Error('User id 3 is not a free positive integer'));
  await t.rejects(createTestChat({ users: { owner: { role: 'owner' }, bot: { bot: 'generic', owner: 'ghost' } } }), new Error('The fixture names a user it does not define: ghost'));
});

t.test('a chat keeps its own context for parley\'s tests', async (t) => {
  const chat = await createTestChat();
  t.teardown(() => chat.close());
  t.equal(contextOf(chat).db, chat.db);
  t.equal(contextOf(chat).clock, chat.clock.now);
});
