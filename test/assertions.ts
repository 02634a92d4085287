// The error assertions every rule test uses: the exact HTTP status, `code` and `msg` of a reply,
// the same ApiError thrown in-process, and both at once.
import type { Test } from 'tap';
import { ApiError } from '../lib/index.js';
import type { Reply } from './helpers.js';

export interface Expected {
  status: number;
  code: string;
  msg: string;
  /** Further fields the error carries (Zulip's `var_name`, `errors`, ...). */
  extra?: Record<string, unknown> | undefined;
}

type Asserts = Pick<Test, 'equal' | 'match' | 'same' | 'fail'>;


export const bad = (msg: string, extra?: Record<string, unknown>): Expected => ({ status: 400, code: 'BAD_REQUEST', msg, extra });

export function isError(t: Asserts, reply: Reply, expected: Expected, label = 'HTTP'): void {
  t.equal(reply.status, expected.status, `${label}: status`);
  t.equal(reply.body.result, 'error', `${label}: result`);
  t.equal(reply.body.code, expected.code, `${label}: code`);
  t.equal(reply.body.msg, expected.msg, `${label}: msg`);
  if (expected.extra) t.match(reply.body, expected.extra, `${label}: further fields`);
}

export async function throwsApiError(t: Asserts, call: () => unknown, expected: Expected): Promise<void> {
  try {
    await call();
    t.fail(`expected ${expected.msg}`);
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    t.same({ status: error.status, code: error.code, msg: error.message }, { status: expected.status, code: expected.code, msg: expected.msg }, 'in-process error');
    if (expected.extra) t.match(error.extra, expected.extra, 'in-process extra fields');
  }
}

/** The same rule over HTTP and in-process. */
export async function bothFail(t: Asserts, http: () => Promise<Reply>, inProcess: () => unknown, expected: Expected): Promise<void> {
  isError(t, await http(), expected);
  await throwsApiError(t, inProcess, expected);
}
