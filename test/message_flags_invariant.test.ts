// Property: after any sequence of subscribe, unsubscribe, send and flag operations (POST
// /messages/flags, /messages/flags/narrow, /mark_all_as_read), no user has an unread message in a
// channel they are not subscribed to, unread_msgs from /register matches the
// rows, and the events each step produced, applied to the user's state, equal a fresh register.
import { isDeepStrictEqual } from 'node:util';
import fc from 'fast-check';
import t from 'tap';
import { ApiError } from '../lib/index.js';
import { startServer, type TestServer } from './helpers.js';
import { applyUnreadEvents, unreadFromRows, unreadOutsideSubscriptions, type UnreadMsgs } from './message_flags_helpers.js';

const s: TestServer = await startServer({ file: false });
t.teardown(() => s.close());

const USERS = 3;
const CHANNELS = 3;
const FLAGS = ['read', 'starred', 'collapsed'] as const;
const OPS = ['add', 'remove'] as const;

type Command =
  | { kind: 'subscribe' | 'unsubscribe'; user: number; channel: number }
  | { kind: 'sendChannel'; user: number; channel: number; mention: number | null; wildcard: boolean }
  | { kind: 'sendDirect'; user: number; to: number[] }
  | { kind: 'flags'; user: number; op: (typeof OPS)[number]; flag: (typeof FLAGS)[number]; picks: number[]; missing: boolean }
  | { kind: 'narrow'; user: number; op: (typeof OPS)[number]; flag: (typeof FLAGS)[number]; channel: number | null; anchor: 'oldest' | 'newest' | 'first_unread' }
  | { kind: 'markAll'; user: number };

const user = fc.integer({ min: 0, max: USERS - 1 });
const channel = fc.integer({ min: 0, max: CHANNELS - 1 });
const command: fc.Arbitrary<Command> = fc.oneof(
  { weight: 3, arbitrary: fc.record({ kind: fc.constantFrom('subscribe' as const, 'unsubscribe' as const), user, channel }) },
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('sendChannel' as const), user, channel, mention: fc.option(user), wildcard: fc.boolean() }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('sendDirect' as const), user, to: fc.uniqueArray(user, { minLength: 1, maxLength: USERS }) }) },
  { weight: 5, arbitrary: fc.record({
    kind: fc.constant('flags' as const),
    user,
    op: fc.constantFrom(...OPS),
    flag: fc.constantFrom(...FLAGS),
    picks: fc.array(fc.nat(), { maxLength: 6 }),
    missing: fc.integer({ min: 0, max: 9 }).map((n) => n === 0),
  }) },
  { weight: 2, arbitrary: fc.record({
    kind: fc.constant('narrow' as const),
    user,
    op: fc.constantFrom(...OPS),
    flag: fc.constantFrom(...FLAGS),
    channel: fc.option(channel),
    anchor: fc.constantFrom('oldest' as const, 'newest' as const, 'first_unread' as const),
  }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('markAll' as const), user }) },
);

let run = 0;

/** A fresh world per run: users, a public, a shared-history private and a protected-history private channel. */
async function setUp() {
  run += 1;
  const users = [];
  for (let i = 0; i < USERS; i++) users.push({ ...(await s.user('member', { fullName: `Run${run} User${i}` })), fullName: `Run${run} User${i}` });
  const names = [`r${run}-public`, `r${run}-shared`, `r${run}-protected`];
  const api = s.chat.api;
  api.streams.subscribe(s.owner.user_id, { subscriptions: [{ name: names[0]! }], principals: [users[0]!.user_id] });
  api.streams.subscribe(s.owner.user_id, { subscriptions: [{ name: names[1]! }], inviteOnly: true, historyPublicToSubscribers: true, principals: [users[0]!.user_id] });
  api.streams.subscribe(s.owner.user_id, { subscriptions: [{ name: names[2]! }], inviteOnly: true, principals: [users[1]!.user_id] });
  return { users, names };
}

async function register(userId: number): Promise<Record<string, any>> {
  return (await s.chat.api.events.register(userId, { eventTypes: ['message', 'update_message_flags'] })) as Record<string, any>;
}

t.test('no unread message outside one\'s channels; unread_msgs matches the rows and the events', async (t) => {
  await fc.assert(
    fc.asyncProperty(fc.array(command, { minLength: 10, maxLength: 40, size: 'max' }), async (commands) => {
      const { users, names } = await setUp();
      const api = s.chat.api;
      const sent: number[] = [];
      const clients = new Map<number, { queue: Record<string, any>; unread: UnreadMsgs }>();
      for (const u of users) {
        const queue = await register(u.user_id);
        clients.set(u.user_id, { queue, unread: queue.unread_msgs });
      }
      const step = (c: Command): unknown => {
        const actor = users[c.user]!.user_id;
        switch (c.kind) {
          case 'subscribe':
            return api.streams.subscribe(s.owner.user_id, { subscriptions: [{ name: names[c.channel]! }], principals: [actor] });
          case 'unsubscribe':
            return api.streams.unsubscribe(actor, { subscriptions: [names[c.channel]!] });
          case 'sendChannel': {
            const mention = c.mention === null ? '' : ` @**${users[c.mention]!.fullName}**`;
            const content = `hello${mention}${c.wildcard ? ' @**all**' : ''}`;
            return sent.push(api.messages.send(actor, { type: 'stream', to: names[c.channel]!, topic: `t${sent.length % 2}`, content }).id);
          }
          case 'sendDirect':
            return sent.push(api.messages.send(actor, { type: 'direct', to: c.to.map((i) => users[i]!.user_id), content: 'dm' }).id);
          case 'flags': {
            const ids = c.picks.filter(() => sent.length > 0).map((p) => sent[p % sent.length]!);
            return api.messageFlags.update(actor, { messages: c.missing ? [...ids, 999_999_999] : ids, op: c.op, flag: c.flag });
          }
          case 'narrow': {
            const narrow = c.channel === null ? null : [{ operator: 'channel', operand: names[c.channel]! }];
            return api.messageFlags.updateForNarrow(actor, { anchor: c.anchor, numBefore: 10, numAfter: 10, narrow, op: c.op, flag: c.flag });
          }
          case 'markAll':
            return api.messageFlags.markAllAsRead(actor);
        }
      };
      for (const c of commands) {
        try {
          await step(c);
        } catch (error) {
          if (!(error instanceof ApiError)) throw error;
        }
        for (const u of users) {
          const outside = unreadOutsideSubscriptions(s.db, u.user_id);
          if (outside.length > 0) throw new Error(`unread outside subscriptions after ${JSON.stringify(c)}: ${outside}`);
          const client = clients.get(u.user_id)!;
          const { events } = await api.events.get(u.user_id, { queueId: client.queue.queue_id, lastEventId: client.queue.last_event_id, dontBlock: true });
          if (events.length > 0) client.queue.last_event_id = events.at(-1)!.id;
          client.unread = applyUnreadEvents(client.unread, events as Record<string, any>[], u.user_id);
          const registered = await register(u.user_id);
          api.events.deleteQueue(u.user_id, { queueId: registered.queue_id });
          const fresh = registered.unread_msgs;
          const rows = unreadFromRows(s.db, u.user_id);
          if (!isDeepStrictEqual(fresh, rows)) throw new Error(`unread_msgs ${JSON.stringify(fresh)} != rows ${JSON.stringify(rows)} after ${JSON.stringify(c)}`);
          if (!isDeepStrictEqual(client.unread, fresh)) {
            throw new Error(`events applied ${JSON.stringify(client.unread)} != register ${JSON.stringify(fresh)} after ${JSON.stringify(c)}`);
          }
        }
      }
    }),
    { numRuns: 30 },
  );
  t.pass('the property held for every generated sequence');
});
