// Who an event row is for. One user (event.user_id), everyone, a list of users (event.recipients),
// or a rule (event.audience, JSON) read when the event is delivered rather than a list of every
// user it names: active users up to a role or above one, the receivers of a channel message. A
// rule costs the write O(1) however many users it covers; reading it costs one lookup per reader.
import type { Store } from '../store/db.js';
import { recipientIds } from '../store/events.js';
import { selectActiveUserRole } from '../store/users.js';
import { selectHasReceived } from '../store/user_message.js';

/** The users an event goes to, as the domain names them (lib/domain/event_types.ts emit()). */
export interface Audience {
  /** Users named one by one (also when a rule leaves them out). */
  users?: Iterable<number>;
  /** Every active user whose role (Zulip's values: 100 owner ... 600 guest) is at most this when the event is read. */
  maxRole?: number;
  /** Every active user whose role is above this when the event is read. */
  roleAbove?: number;
  /** The users who received this channel message (its subscribers when it was sent: lib/store/user_message.ts). */
  receiversOf?: number;
  /** Users the rules leave out. */
  except?: readonly number[];
}

/** The rule part of an Audience, as stored in event.audience. */
export interface AudienceRule {
  maxRole?: number;
  roleAbove?: number;
  receiversOf?: number;
  except?: number[];
}

/** What a row's routing columns say. */
export interface Route {
  userId: number | null;
  /** null with no rule: everyone. */
  users: ReadonlySet<number> | null;
  rule: AudienceRule | null;
}

export function isAudience(target: Iterable<number> | Audience): target is Audience {
  return !(Symbol.iterator in target);
}

/** The rule of an audience as stored, or null when it only names users. */
export function audienceRule(audience: Audience): string | null {
  const rule: AudienceRule = {};
  if (audience.maxRole !== undefined) rule.maxRole = audience.maxRole;
  if (audience.roleAbove !== undefined) rule.roleAbove = audience.roleAbove;
  if (audience.receiversOf !== undefined) rule.receiversOf = audience.receiversOf;
  if (Object.keys(rule).length === 0) return null;
  if (audience.except !== undefined && audience.except.length > 0) rule.except = [...audience.except];
  return JSON.stringify(rule);
}

export function routeOf(row: { user_id: number | null; recipients: string | null; audience: string | null }): Route {
  return {
    userId: row.user_id,
    users: row.recipients === null ? null : new Set(recipientIds(row.recipients)),
    rule: row.audience === null ? null : (JSON.parse(row.audience) as AudienceRule),
  };
}

/**
 * Answers whether rules cover users, remembering each user's role for as long as it is kept (one
 * delivery or one read): rules are decided by the user's state when the event is read.
 */
export class RuleReader {
  readonly #store: Store;
  readonly #roles = new Map<number, number | undefined>();

  constructor(store: Store) {
    this.#store = store;
  }

  #role(userId: number): number | undefined {
    if (!this.#roles.has(userId)) this.#roles.set(userId, selectActiveUserRole(this.#store, userId));
    return this.#roles.get(userId);
  }

  covers(rule: AudienceRule, userId: number): boolean {
    if (rule.except?.includes(userId)) return false;
    if (rule.receiversOf !== undefined) return selectHasReceived(this.#store, userId, rule.receiversOf);
    const role = this.#role(userId);
    if (role === undefined) return false;
    return (rule.maxRole === undefined || role <= rule.maxRole) && (rule.roleAbove === undefined || role > rule.roleAbove);
  }

  /** Whether the row is for the user. */
  includes(route: Route, userId: number): boolean {
    if (route.userId !== null) return route.userId === userId;
    if (route.users === null && route.rule === null) return true;
    if (route.users?.has(userId)) return true;
    return route.rule !== null && this.covers(route.rule, userId);
  }
}
