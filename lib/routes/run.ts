// The one route runner, for HTTP and the in-process API alike (fastify's handleRequest, hono's
// app.request): the caller confirmed as of now, access, `before`, the parameters validated, the
// handler; for a transactional route all of it in one write transaction.
import type { Ctx } from '../context.js';
import { confirm, type Caller } from '../domain/callers.js';
import { validateParams, type ParamSource } from '../http/params.js';
import type { RequestInfo } from '../http/request.js';
import { checkAccess, type RouteDef } from './route.js';

export interface RouteRunner {
  /**
   * Runs `route` for `caller` (null for a public route) with its parameters from `input`; returns
   * the handler's answer (a promise for an asynchronous handler) or throws the ApiError to answer with.
   */
  run(route: RouteDef, caller: Caller | null, input: ParamSource, request: RequestInfo): unknown;
  /**
   * What can be refused before a request's body is read: the caller's access, and `before` unless
   * the route is transactional (there it reads in the write transaction). A caller authenticated
   * from the rows last read is refused only as they are now. Returns the caller to run with.
   */
  precheck(route: RouteDef, caller: Caller): Caller;
}

export function routeRunner(ctx: Ctx): RouteRunner {
  const execute = (route: RouteDef, caller: Caller | null, input: ParamSource, request: RequestInfo): unknown => {
    if (route.access === 'public') return route.handler(ctx, null, validated(route, input, request), request);
    if (caller === null) throw new Error(`${route.method} ${route.path} needs a caller`);
    const current = confirm(ctx, caller, route);
    checkAccess(route, current.actor);
    route.before?.(ctx, current.actor);
    return route.handler(ctx, current, validated(route, input, request), request);
  };

  return {
    run(route, caller, input, request) {
      if (route.transactional !== true) return execute(route, caller, input, request);
      // The caller's version read, the checks and the handler's own transaction in one: any change
      // to the caller committed before it is seen, and it costs no transaction of its own.
      return ctx.tx(() => {
        const result = execute(route, caller, input, request);
        if (result instanceof Promise) throw new Error(`${route.method} ${route.path} is transactional but its handler is asynchronous`);
        return result;
      });
    },

    precheck(route, caller) {
      const check = (who: Caller): Caller => {
        checkAccess(route, who.actor);
        if (route.access !== 'public' && route.transactional !== true) route.before?.(ctx, who.actor);
        return who;
      };
      try {
        return check(caller);
      } catch (error) {
        const current = confirm(ctx, caller, route);
        if (current === caller) throw error;
        return check(current);
      }
    },
  };
}

/** The route's parameters, validated; a password login's account is announced to the request. */
function validated(route: RouteDef, input: ParamSource, request: RequestInfo) {
  const values = validateParams(route.fields, input);
  if (route.passwordLogin) request.passwordLogin?.(String(values[route.passwordLogin.accountParam]));
  return values;
}
