// The fixtures of the test kit: a small object describing an organization's users, channels, user
// groups and messages, and what builds it on a new server through parley's own functions.
import type { Ctx } from '../context.js';
import type { ChatServer } from '../index.js';
import { ROLE, type RoleName } from '../domain/roles.js';
import { addUser } from '../domain/users.js';
import { deleteEventsUpTo, selectAllQueues, selectMaxEventId } from '../store/events.js';

export interface FixtureUser {
  /** Default: `<key>@example.com`. */
  email?: string;
  /** Default: the key, capitalized. */
  fullName?: string;
  /** Default: member. */
  role?: RoleName;
  /** A bot of this kind, owned by `owner`. */
  bot?: 'generic' | 'incoming_webhook';
  /** The key of a bot's owner; default: the first owner. */
  owner?: string;
  /** A chosen user id (e.g. another server's); default: the next one. */
  id?: number;
  /** Lets the user log in with a password (slow to hash: leave it out unless a test logs in). */
  password?: string;
  /** An IANA time zone, e.g. 'US/Pacific'. */
  timezone?: string;
}

export interface FixtureChannel {
  description?: string;
  /** A private channel (history protected, as Zulip's default for private channels). */
  private?: boolean;
  /** The keys of its subscribers, at least one; 'everyone' for every human user. */
  subscribers: readonly string[] | 'everyone';
  /** A default channel: users created later join it. */
  default?: boolean;
}

export interface FixtureUserGroup {
  description?: string;
  members: readonly string[];
}

/** A message, sent in order through the API: to a channel (with a topic) or directly to users. */
export type FixtureMessage =
  | { from: string; channel: string; topic: string; content: string }
  | { from: string; to: readonly string[]; content: string };

export interface ChatFixture {
  organization?: {
    name?: string;
    /** The organization URL (default http://localhost:9991); API emails of hidden addresses take its host. */
    url?: string;
    /** Who sees users' real emails (1 everyone ... 5 moderators, Zulip's values); default 1, everyone. */
    emailAddressVisibility?: 1 | 2 | 3 | 4 | 5;
  };
  /** Users and bots by key. At least one owner; the first owner is created first, then the humans, then the bots. */
  users: Readonly<Record<string, FixtureUser>>;
  /**
   * Channels by name. Without it the organization has parley's initial channels (general and
   * sandbox, the first owner subscribed, both default channels).
   */
  channels?: Readonly<Record<string, FixtureChannel>>;
  userGroups?: Readonly<Record<string, FixtureUserGroup>>;
  messages?: readonly FixtureMessage[];
  /** Anything else, through the in-process API, after the above (e.g. drafts, linkifiers, settings). */
  setup?: (chat: ChatServer, built: BuiltFixture) => void | Promise<void>;
}

/** A fixture user as a test gets it. */
export interface FixtureAccount {
  readonly key: string;
  readonly user_id: number;
  /** user_id again: an account is an actor of chat.api (`chat.api.users.me(chat.users.iago)`). */
  readonly id: number;
  readonly email: string;
  readonly api_key: string;
  readonly full_name: string;
}

export interface FixtureChannelInfo {
  readonly stream_id: number;
  readonly name: string;
}

export interface BuiltFixture {
  users: Record<string, FixtureAccount>;
  channels: Record<string, FixtureChannelInfo>;
}

const BOT_TYPES = { generic: 1, incoming_webhook: 2 } as const;

/** The fixture that createTestChat() builds when given none: an owner and parley's initial channels. */
export const DEFAULT_FIXTURE = { users: { owner: { role: 'owner', fullName: 'Olivia Owner' } } } as const satisfies ChatFixture;

export async function buildFixture(ctx: Ctx, chat: ChatServer, fixture: ChatFixture): Promise<BuiltFixture> {
  const entries = Object.entries(fixture.users);
  const ownerEntry = entries.find(([, user]) => user.role === 'owner' && user.bot === undefined);
  if (ownerEntry === undefined) throw new Error('A fixture needs an owner: a user with role: "owner"');
  const ordered = [ownerEntry, ...entries.filter(([key, user]) => key !== ownerEntry[0] && user.bot === undefined), ...entries.filter(([, user]) => user.bot !== undefined)];
  const users: Record<string, FixtureAccount> = {};
  const idOf = (key: string): number => {
    const account = users[key];
    if (account === undefined) throw new Error(`The fixture names a user it does not define: ${key}`);
    return account.user_id;
  };
  for (const [key, user] of ordered) {
    const first = key === ownerEntry[0];
    const fullName = user.fullName ?? key.charAt(0).toUpperCase() + key.slice(1);
    const credentials = await addUser(ctx, {
      id: user.id,
      email: user.email ?? `${key}@example.com`,
      fullName,
      password: user.password,
      role: ROLE[user.role ?? 'member'],
      botType: user.bot === undefined ? null : BOT_TYPES[user.bot],
      botOwnerId: user.bot === undefined ? null : idOf(user.owner ?? ownerEntry[0]),
      first,
      initialChannels: first && fixture.channels === undefined,
    });
    users[key] = { key, user_id: credentials.user_id, id: credentials.user_id, email: credentials.email, api_key: credentials.api_key, full_name: fullName };
    if (user.timezone !== undefined) chat.api.userSettings.update(credentials.user_id, { timezone: user.timezone });
  }
  const owner = idOf(ownerEntry[0]);
  const humans = ordered.filter(([, user]) => user.bot === undefined).map(([key]) => idOf(key));

  const channels: Record<string, FixtureChannelInfo> = {};
  for (const [name, channel] of Object.entries(fixture.channels ?? {})) {
    const subscribers = channel.subscribers === 'everyone' ? humans : channel.subscribers.map(idOf);
    if (subscribers.length === 0) throw new Error(`Channel ${name} of the fixture needs a subscriber`);
    chat.api.streams.subscribe(owner, {
      subscriptions: [{ name, ...(channel.description === undefined ? {} : { description: channel.description }) }],
      principals: subscribers,
      inviteOnly: channel.private ?? false,
    });
    const { stream_id } = chat.api.streams.getId(owner, { stream: name });
    channels[name] = { stream_id, name };
    if (channel.default === true) chat.api.streams.addDefaultStream(owner, { streamId: stream_id });
  }
  for (const [name, group] of Object.entries(fixture.userGroups ?? {})) {
    chat.api.userGroups.create(owner, { name, description: group.description ?? '', members: group.members.map(idOf) });
  }
  for (const message of fixture.messages ?? []) {
    const sender = idOf(message.from);
    if ('channel' in message) chat.api.messages.send(sender, { type: 'stream', to: message.channel, topic: message.topic, content: message.content });
    else chat.api.messages.send(sender, { type: 'direct', to: message.to.map(idOf), content: message.content });
  }
  if (fixture.channels === undefined) {
    for (const { stream_id, name } of chat.api.streams.listSubscriptions(owner).subscriptions) channels[name] = { stream_id, name };
  }
  return { users, channels };
}

/**
 * Drops the events of building the fixture, unless a queue exists (the caller checks that no
 * in-process subscriber does): nothing can ever read them, and a smaller database makes snapshots
 * cheaper. Then VACUUM gives the freed pages back (event_queue, the one table whose rows it could
 * renumber, is empty).
 */
export function dropSetUpEvents(ctx: Ctx): void {
  if (selectAllQueues(ctx.store).length > 0) return;
  ctx.tx(() => deleteEventsUpTo(ctx.store, selectMaxEventId(ctx.store), Number.MAX_SAFE_INTEGER));
  ctx.db.exec('VACUUM');
}
