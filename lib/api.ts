// The typed in-process API: one function per route, `api.<group>.<name>(actor, input)`, with the
// route's own parameter schemas (camelCase keys) and handler, so the rules and ApiErrors are the
// same as over HTTP, with no HTTP involved.
import type { Ctx } from './context.js';
import { resolveActor, type ActorRef } from './domain/auth.js';
import type { Actor } from './domain/roles.js';
import type { UploadedFile } from './http/body.js';
import { validateParams, type ParamInputs, type ParamShape } from './http/params.js';
import { checkAccess, type RouteDef } from './routes/route.js';

type Camel<S extends string> = S extends `${infer Head}_${infer Tail}` ? `${Head}${Capitalize<Camel<Tail>>}` : S;
type CamelKeys<T> = { [K in keyof T as K extends string ? Camel<K> : K]: T[K] };

type Input<P extends ParamShape> = CamelKeys<ParamInputs<P>>;

/** What an in-process call may add to its parameters: an abort signal, and the files of a multipart upload. */
export interface InProcessExtras {
  signal?: AbortSignal;
  files?: readonly UploadedFile[];
}

type RouteResult<D> = D extends { handler: (...args: never[]) => infer R } ? R : never;

export type ApiFunction<D> =
  D extends { params: infer P extends ParamShape }
    ? {} extends Input<P>
      ? (actor: ActorRef | null, input?: Input<P> & InProcessExtras) => RouteResult<D>
      : (actor: ActorRef | null, input: Input<P> & InProcessExtras) => RouteResult<D>
    : never;

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type RouteGroups = Record<string, Record<string, RouteDef<any, any>>>;

export type Api<G extends RouteGroups> = { [Group in keyof G]: { [Name in keyof G[Group]]: ApiFunction<G[Group][Name]> } };

const snake = (key: string): string => key.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);

export function buildApi<G extends RouteGroups>(
  ctx: Ctx,
  groups: G,
  invoke: (route: RouteDef, actor: Actor, input: Record<string, unknown>, signal?: AbortSignal, files?: readonly UploadedFile[]) => unknown,
): Api<G> {
  const api: Record<string, Record<string, unknown>> = {};
  for (const [groupName, group] of Object.entries(groups)) {
    const functions: Record<string, unknown> = {};
    for (const [name, route] of Object.entries(group)) {
      // The declared parameters' camelCase keys, worked out once (the regex was a visible part of a short call).
      const declared = new Map(Object.keys(route.params).map((wire) => [wire.replace(/_([a-z])/g, (_, letter: string) => letter.toUpperCase()), wire]));
      const call = (actorRef: ActorRef | null, input: Record<string, unknown> = {}): unknown => {
        const actor = route.access === 'public' && actorRef === null ? null : resolveActor(ctx, actorRef ?? 0, route);
        if (actor) {
          checkAccess(route, actor);
          route.before?.(ctx, actor);
        }
        const { signal, files, ...rest } = input as InProcessExtras;
        const params: Record<string, unknown> = {};
        for (const [key, value] of Object.entries(rest)) params[declared.get(key) ?? snake(key)] = value;
        const values = validateParams(route.params, params);
        return invoke(route, actor as Actor, values, signal, files);
      };
      // A transactional route (RouteDef.transactional) runs as over HTTP: the caller's version read,
      // the access checks and the handler in one write transaction.
      functions[name] =
        route.transactional === true && route.access !== 'public'
          ? (...args: Parameters<typeof call>) =>
              ctx.requestTx(() => {
                const result = call(...args);
                if (result instanceof Promise) throw new Error(`${route.method} ${route.path} is transactional but its handler is asynchronous`);
                return result;
              })
          : call;
    }
    api[groupName] = functions;
  }
  return api as Api<G>;
}

