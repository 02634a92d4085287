// Shared set-up of the draft tests: one server per test file (with a fixed clock), fresh users
// and a channel per test, the draft and drafts-event schemas, and error assertions.
import type { Test } from 'tap';
import { draftEventSchemas, draftSchema as domainDraftSchema, type Draft } from '../lib/domain/draft_dicts.js';
import { startServer, type Reply, type TestServer, type TestUser } from './helpers.js';
import { deliveredSchema, strictSchema } from './stored_events.js';

export const NOW_MS = 1_700_000_000_250;
export const NOW = 1_700_000_000;

export const draftSchema = strictSchema(domainDraftSchema);
export const eventSchema = deliveredSchema(draftEventSchemas);
export type { Draft };

import { bad, type Expected } from './assertions.js';
export { bad, isError, throwsApiError, type Expected } from './assertions.js';

export const NO_DRAFT: Expected = { status: 404, code: 'BAD_REQUEST', msg: 'Draft does not exist' };
export const SYNC_OFF = bad('User has disabled synchronizing drafts.');

export interface World {
  s: TestServer;
  member: TestUser;
  other: TestUser;
  general: number;
}

let channels = 0;

export function channel(s: TestServer, name: string, options: { inviteOnly?: boolean; archived?: boolean; subscribers?: number[] } = {}): number {
  const id = Number(
    s.db
      .prepare('INSERT INTO stream (name, invite_only, is_archived, date_created) VALUES (?, ?, ?, 0)')
      .run(`${name} ${++channels}`, options.inviteOnly ? 1 : 0, options.archived ? 1 : 0).lastInsertRowid,
  );
  for (const userId of options.subscribers ?? []) {
    s.db.prepare('INSERT INTO subscription (user_id, stream_id, date_subscribed) VALUES (?, ?, 0)').run(userId, id);
  }
  return id;
}

/** One server for the whole test file (starting one costs ~0.4 s); `setup` gives each test fresh users. */
export function draftServer(t: Test): (t: Test) => Promise<World> {
  const server = startServer({ clock: () => NOW_MS });
  t.teardown(async () => (await server).close());
  return async () => {
    const s = await server;
    const member = await s.user('member');
    const other = await s.user('member');
    return { s, member, other, general: channel(s, 'general', { subscribers: [member.user_id] }) };
  };
}

export const create = (s: TestServer, user: TestUser, drafts: unknown, encoding?: 'multipart') =>
  s.request('POST', '/drafts', { as: user, params: { drafts }, encoding });
export const fetchDrafts = async (s: TestServer, user: TestUser): Promise<Draft[]> => (await s.request('GET', '/drafts', { as: user })).body.drafts;

export const streamDraft = (to: number[], extra: Record<string, unknown> = {}) => ({ type: 'stream', to, topic: 'sync drafts', content: 'Hello', ...extra });

export async function createOk(t: Test, s: TestServer, user: TestUser, drafts: unknown[]): Promise<number[]> {
  const reply = await create(s, user, drafts);
  t.equal(reply.status, 200, 'created');
  return reply.body.ids;
}

