// Shared by the narrow suites (search, has, with): one GET /messages over HTTP and the same call
// in-process, which must agree, and its error over both.
import type { Test } from 'tap';
import type { TestServer, TestUser } from './helpers.js';
import { bothFail, camelize, ok, type Expected } from './messaging_helpers.js';

export type Narrow = readonly unknown[];
type Message = Record<string, any>;

/** The messages of a narrow (newest 50 by default), checked to be the same over HTTP and in-process. */
export async function narrowed(t: Test, s: TestServer, user: TestUser, narrow: Narrow, params: Record<string, unknown> = {}): Promise<Message[]> {
  const all = { anchor: 'newest', num_before: 50, num_after: 0, narrow, ...params };
  const http = ok(t, await s.request('GET', '/messages', { as: user, params: all }));
  const inProcess = s.chat.api.messages.list(user.user_id, camelize(all) as never);
  t.same(JSON.parse(JSON.stringify(inProcess.messages)), http.messages, 'in-process gives the same messages');
  return http.messages as Message[];
}

export async function narrowedIds(t: Test, s: TestServer, user: TestUser, narrow: Narrow, params: Record<string, unknown> = {}): Promise<number[]> {
  return (await narrowed(t, s, user, narrow, params)).map((m) => m.id as number);
}

/** GET /messages with this narrow fails as expected, over HTTP and in-process. */
export async function narrowFails(t: Test, s: TestServer, user: TestUser, narrow: Narrow, expected: Expected): Promise<void> {
  const all = { anchor: 'newest', num_before: 5, num_after: 0, narrow };
  await bothFail(
    t,
    () => s.request('GET', '/messages', { as: user, params: all }),
    () => s.chat.api.messages.list(user.user_id, camelize(all) as never),
    expected,
  );
}

export const badNarrow = (desc: string): Expected => ({ status: 400, code: 'BAD_NARROW', msg: `Invalid narrow operator: ${desc}`, extra: { desc } });

export const search = (operand: unknown, negated = false) => ({ operator: 'search', operand, negated });
