// The set-up the channel administration suites share: one server with an administrator, two
// members and a guest, and fresh channels with chosen subscribers.
import type { Test } from 'tap';
import { startServer, type TestServer, type TestUser } from './helpers.js';
import { bad, ok, subscribe } from './messaging_helpers.js';

export const NOT_ADMIN = { status: 400, code: 'UNAUTHORIZED_PRINCIPAL', msg: 'Must be an organization administrator' };
export const INVALID = bad('Invalid channel ID');

export interface ChannelSuite {
  s: TestServer;
  admin: TestUser;
  member: TestUser;
  other: TestUser;
  guest: TestUser;
  /** A fresh channel (named `<prefix>-<n>`) with the given subscribers (the first creates it). */
  channel(users: TestUser[], params?: Record<string, unknown>): Promise<{ id: number; name: string }>;
}

export async function channelSuite(t: Test, prefix: string): Promise<ChannelSuite> {
  const s = await startServer();
  t.teardown(() => s.close());
  const admin = await s.user('admin', { fullName: 'Ada Admin' });
  const member = await s.user('member', { fullName: 'Mia Member' });
  const other = await s.user('member', { fullName: 'Otto Other' });
  const guest = await s.user('guest', { fullName: 'Gus Guest' });
  let counter = 0;
  return {
    s,
    admin,
    member,
    other,
    guest,
    async channel(users, params = {}) {
      counter += 1;
      const name = `${prefix}-${counter}`;
      ok(t, await subscribe(s, users[0]!, [name], { principals: users.map((u) => u.user_id), ...params }));
      return { id: s.db.prepare('SELECT id FROM stream WHERE name = ?').pluck().get(name) as number, name };
    },
  };
}
