// The harness of the conformance tests: each answer is checked against parley's own OpenAPI
// document (its status is listed, its body matches) and, where Zulip documents the operation,
// against Zulip's (FL 420); at the end, every route of the file's groups must have been checked.
import type { Test } from 'tap';
import { openApiPath } from '../lib/routes/openapi_document.js';
import { routeGroups } from '../lib/routes/index.js';
import type { RouteDef } from '../lib/routes/route.js';
import type { Reply, RequestOptions, TestServer } from './helpers.js';
import { parleyOpenApi } from './parley_openapi.js';
import { matchOperation, normalize, zulipOpenApi } from './zulip_openapi.js';

export interface Conformance {
  /** Sends the request, checks the status, and checks the answer against both documents. */
  call(t: Test, method: string, path: string, options: RequestOptions, status: number): Promise<Reply>;
  /** Checks an answer obtained some other way (a multipart upload, a raw fetch). */
  check(t: Test, method: string, path: string, reply: Reply, status: number, outsideApi?: boolean): void;
  /**
   * Every route of these groups was answered with a success (and an error unless it cannot fail),
   * checked against parley's document, and against Zulip's where Zulip documents it.
   */
  assertCovered(t: Test, groups: readonly string[]): void;
}

type Kind = 'success' | 'error';

/** Routes that only ever answer with an error (parley receives no email, so no channel has an address). */
const NEVER_SUCCEEDS = new Set(['GET /api/v1/streams/{stream_id}/email_address']);

/** The route groups each conformance file covers; together, every group (test/openapi.test.ts). */
export const CORE_GROUPS = ['server', 'users', 'events', 'streams', 'userGroups', 'messages', 'messageFlags', 'reactions'] as const;
/** The ways in and accounts (test/zulip_openapi_accounts.test.ts). */
export const ACCOUNT_GROUPS = ['sessions', 'invites', 'accounts'] as const;
export const FEATURE_GROUPS = ['push', 'navigationViews', 'drafts', 'alertWords', 'userStatus', 'userSettings', 'realmEmoji', 'linkifiers', 'openApi', 'externalContent', 'typing', 'presence', 'emojiData', 'uploads', 'botStorage', 'userTopics', 'mutedUsers', 'webPush', 'realm', 'integrations'] as const;

export function conformance(s: TestServer): Conformance {
  const zulip = zulipOpenApi();
  const parley = parleyOpenApi();
  const seen = { zulip: new Map<string, Set<Kind>>(), parley: new Map<string, Set<Kind>>() };
  const record = (map: Map<string, Set<Kind>>, key: string, kind: Kind): void => {
    map.set(key, (map.get(key) ?? new Set()).add(kind));
  };

  // Files at /user_uploads/... are outside /api/v1 too, but share their path with an API route: the caller says.
  const check = (t: Test, method: string, path: string, reply: Reply, status: number, outsideApi = /^\/(user_avatars|external_content|static)\//.test(path)): void => {
    t.equal(reply.status, status, `${method} ${path}: status ${status} (${reply.body.msg ?? ''})`);
    const kind: Kind = reply.status < 400 ? 'success' : 'error';
    const own = parley.match(method, outsideApi ? path : `/api/v1${path}`);
    if (!own) return void t.fail(`parley's document has no ${method} ${path}`);
    t.same(parley.check(own, reply.status, reply.body), [], `${method} ${path} ${reply.status}: as parley's document says`);
    record(seen.parley, `${method} ${own.path}`, kind);
    // Zulip documents only API routes (its /user_uploads/... file answers are not in its document).
    const operation = outsideApi && path.startsWith('/user_uploads/') ? undefined : matchOperation(zulip, method, path);
    if (!operation) return;
    t.same(zulip.check(operation, reply.status, reply.body), [], `${method} ${path} ${reply.status}: as Zulip's ${operation.operationId} says`);
    record(seen.zulip, `${method} ${normalize(operation.path)}`, kind);
  };

  return {
    check,
    async call(t, method, path, options, status) {
      const reply = await s.request(method, path, options);
      check(t, method, path, reply, status);
      return reply;
    },
    assertCovered(t, groups) {
      const missing: string[] = [];
      for (const group of groups) {
        for (const route of Object.values(routeGroups[group as keyof typeof routeGroups]) as RouteDef[]) {
          const path = openApiPath(route);
          const canFail = route.access !== 'public' || Object.keys(route.params).length > 0;
          const wanted: Kind[] = NEVER_SUCCEEDS.has(`${route.method} ${path}`) ? ['error'] : canFail ? ['success', 'error'] : ['success'];
          const own = seen.parley.get(`${route.method} ${path}`);
          for (const kind of wanted) if (!own?.has(kind)) missing.push(`${route.method} ${path}: ${kind} (parley)`);
          const zulipPath = path.replace(/^\/api\/v1/, '');
          if (route.outsideApi || !zulip.operation(route.method, zulipPath)) continue;
          const theirs = seen.zulip.get(`${route.method} ${normalize(zulipPath)}`);
          for (const kind of wanted) if (!theirs?.has(kind)) missing.push(`${route.method} ${zulipPath}: ${kind} (Zulip)`);
        }
      }
      t.same(missing, [], 'answers checked against the documents');
    },
  };
}
