// Who an event row is for. One user (event.user_id), everyone, a list of users (event.recipients),
// or rules (event.audience, JSON) read when the event is delivered rather than a list of every
// user they cover: active users up to a role or above one, the receivers of channel messages by a
// subscription period, a channel's subscribers. A rule costs the write O(1) however many users it
// covers; reading it costs a few lookups per reader.
import type { Store } from '../store/db.js';
import { recipientIds } from '../store/events.js';
import { selectIsSubscribed } from '../store/streams.js';
import { selectPeriodsInStream, type Period } from '../store/subscription_periods.js';
import { selectActiveUserRole } from '../store/users.js';

/** The users an event goes to, as the domain names them (lib/domain/event_types.ts emit()). */
export interface Audience extends AudienceClause {
  /** Users named one by one (also when a rule leaves them out). */
  users?: Iterable<number>;
  /** More rules: a user any of them covers gets the event (the fields above are one more). */
  anyOf?: readonly AudienceClause[];
  /** Users the rules leave out. */
  except?: readonly number[];
}

/** One rule: an active user for whom every condition given holds, when the event is read. */
export interface AudienceClause {
  /** Role (Zulip's values: 100 owner ... 600 guest) at most this. */
  maxRole?: number;
  /** Role above this. */
  roleAbove?: number;
  /** Received one of these messages of the channel by a subscription period (lib/store/subscription_periods.ts). */
  received?: { stream: number; messages: readonly number[] };
  /** With `received`: has this message by a period, unread (true) or read (false). */
  unread?: { message: number; is: boolean };
  /** Subscribed to this channel. */
  subscribedTo?: number;
}

/** An Audience's rules as stored in event.audience: one clause's fields, or {anyOf}, with except. */
export interface AudienceRule extends AudienceClause {
  anyOf?: AudienceClause[];
  except?: number[];
}

/** What a row's routing columns say. */
export interface Route {
  userId: number | null;
  /** null with no rule: everyone. */
  users: ReadonlySet<number> | null;
  rule: AudienceRule | null;
}

const CLAUSE_FIELDS = ['maxRole', 'roleAbove', 'received', 'unread', 'subscribedTo'] as const;

function clauseOf(source: AudienceClause): AudienceClause | null {
  const clause: Record<string, unknown> = {};
  for (const field of CLAUSE_FIELDS) if (source[field] !== undefined) clause[field] = source[field];
  return Object.keys(clause).length > 0 ? (clause as AudienceClause) : null;
}

export function isAudience(target: Iterable<number> | Audience): target is Audience {
  return !(Symbol.iterator in target);
}

/** The rule of an audience as stored, or null when it only names users. */
export function audienceRule(audience: Audience): string | null {
  const clauses = [clauseOf(audience), ...(audience.anyOf ?? []).map(clauseOf)].filter((c): c is AudienceClause => c !== null);
  if (clauses.length === 0) return null;
  const rule: AudienceRule = clauses.length === 1 ? { ...clauses[0] } : { anyOf: clauses };
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
 * Answers whether rules cover users, remembering what it read (each user's role, their periods in
 * a channel) for as long as it is kept (one delivery or one read): rules are
 * decided by the user's state when the event is read.
 */
export class RuleReader {
  readonly #store: Store;
  readonly #roles = new Map<number, number | undefined>();
  readonly #periods = new Map<string, Period[]>();

  constructor(store: Store) {
    this.#store = store;
  }

  #role(userId: number): number | undefined {
    if (!this.#roles.has(userId)) this.#roles.set(userId, selectActiveUserRole(this.#store, userId));
    return this.#roles.get(userId);
  }

  #periodsOf(userId: number, streamId: number): Period[] {
    const key = `${userId}:${streamId}`;
    let periods = this.#periods.get(key);
    if (periods === undefined) this.#periods.set(key, (periods = selectPeriodsInStream(this.#store, userId, streamId)));
    return periods;
  }

  #clause(clause: AudienceClause, userId: number, role: number): boolean {
    if (clause.maxRole !== undefined && role > clause.maxRole) return false;
    if (clause.roleAbove !== undefined && role <= clause.roleAbove) return false;
    if (clause.subscribedTo !== undefined && !selectIsSubscribed(this.#store, userId, clause.subscribedTo)) return false;
    if (clause.received !== undefined) {
      const periods = this.#periodsOf(userId, clause.received.stream);
      const covering = (id: number) => periods.find((p) => p.first <= id && id < p.end);
      if (!clause.received.messages.some((id) => covering(id) !== undefined)) return false;
      if (clause.unread !== undefined) {
        const period = covering(clause.unread.message);
        if ((period !== undefined && clause.unread.message > period.readThrough) !== clause.unread.is) return false;
      }
    }
    return true;
  }

  covers(rule: AudienceRule, userId: number): boolean {
    if (rule.except?.includes(userId)) return false;
    const role = this.#role(userId);
    if (role === undefined) return false;
    return (rule.anyOf ?? [rule]).some((clause) => this.#clause(clause, userId, role));
  }

  /** Whether the row is for the user. */
  includes(route: Route, userId: number): boolean {
    if (route.userId !== null) return route.userId === userId;
    if (route.users === null && route.rule === null) return true;
    if (route.users?.has(userId)) return true;
    return route.rule !== null && this.covers(route.rule, userId);
  }
}
