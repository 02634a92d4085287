// The typed in-process API: one function per route, `api.<group>.<name>(actor, input)`, with the
// route's own parameter names and types, run by the same runner as HTTP (lib/routes/run.ts), so
// the rules and ApiErrors are the same, with no HTTP involved.
import type { Ctx } from './context.js';
import { authenticate } from './domain/callers.js';
import type { UploadedFile } from './http/body.js';
import { typedParams, type ParamInputs, type ParamShape, type ParamValueMap } from './http/params.js';
import { inProcessRequest, type SentRequest } from './http/request.js';
import type { RouteDef } from './routes/route.js';
import type { RouteRunner } from './routes/run.js';

/** The in-process API's caller: a user id or an object with one; must be an active account, not an incoming webhook bot. */
export type ActorRef = number | { id: number };

/**
 * What an in-process call may add to its parameters: an abort signal, the files of a multipart
 * upload, and for a route that reads its request as sent (an incoming webhook) its headers and body.
 */
export interface InProcessExtras {
  signal?: AbortSignal;
  files?: readonly UploadedFile[];
  sent?: SentRequest;
}

type RouteResult<D> = D extends { handler: (...args: never[]) => infer R } ? R : never;

export type ApiFunction<D> =
  D extends { params: infer P extends ParamShape }
    ? {} extends ParamInputs<P>
      ? (actor: ActorRef | null, input?: ParamInputs<P> & InProcessExtras) => RouteResult<D>
      : (actor: ActorRef | null, input: ParamInputs<P> & InProcessExtras) => RouteResult<D>
    : never;

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type RouteGroups = Readonly<Record<string, Readonly<Record<string, RouteDef<any, any>>>>>;

export type Api<G extends RouteGroups> = { [Group in keyof G]: { [Name in keyof G[Group]]: ApiFunction<G[Group][Name]> } };

type Call = (actor: ActorRef | null, input?: InProcessExtras & ParamValueMap) => unknown;

export function buildApi<G extends RouteGroups>(ctx: Ctx, groups: G, runner: RouteRunner): Api<G> {
  const call =
    (route: RouteDef, name: string): Call =>
    (actor, { signal, files, sent, ...values } = {}) => {
      const run = (): unknown => {
        // The user the embedding application names, under the same account rules as any way in.
        const caller = route.access === 'public' ? null : authenticate(ctx, { kind: 'trusted', userId: actor === null ? 0 : typeof actor === 'number' ? actor : actor.id }, route);
        return runner.run(route, caller, typedParams(values), inProcessRequest(signal, files, sent));
      };
      return ctx.db.inTransaction ? inHostTransaction(ctx, route, name, run) : run();
    };
  const api = Object.fromEntries(
    Object.entries(groups).map(([group, routes]) => [
      group,
      Object.fromEntries(Object.entries(routes).map(([name, route]) => [name, call(route, `chat.api.${group}.${name}`)])),
    ]),
  );
  return api as Api<G>;
}

/**
 * A call inside the host's transaction (chat.transaction or its own): one savepoint, all or
 * nothing whatever the host does with its error. A route that waits is refused before it starts:
 * its writes after the wait would land outside the transaction.
 */
function inHostTransaction(ctx: Ctx, route: RouteDef, name: string, run: () => unknown): unknown {
  if (route.asynchronous === true) throw new TypeError(waitsInTransaction(name));
  return ctx.tx(() => {
    const result = run();
    if (result instanceof Promise) {
      result.catch(() => {});
      throw new TypeError(waitsInTransaction(name));
    }
    return result;
  });
}

const waitsInTransaction = (name: string): string => `${name} waits for I/O and cannot run inside a transaction; call it before or after`;
