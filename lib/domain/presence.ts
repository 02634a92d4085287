// Presence: POST /users/me/presence, GET /realm/presence, GET /users/{user_id_or_email}/presence,
// the presence event and the /register `presences` state (Zulip's zerver/actions/presence.py and
// zerver/lib/presence.py). Answers come in Zulip's modern format (keyed by user id, with
// active_timestamp and idle_timestamp) or its legacy one (keyed by email, a "website" client entry
// and an "aggregated" copy of it).
import type { Ctx } from '../context.js';
import { apiEmail, fakeEmailDomain } from './email_visibility.js';
import { badRequest } from '../errors.js';
import type { StateOptions } from './state_options.js';
import { selectPresence, selectShownPresences, upsertPresence, type ShownPresenceRow } from '../store/presence.js';
import { selectActiveUserIds, selectUserByEmail, selectUserById, type UserRow } from '../store/users.js';
import type { Actor } from './roles.js';
import { existingUser } from './users.js';
import { emit } from './event_types.js';
import { OFFLINE_THRESHOLD_SECONDS, type LegacyPresence, type ModernPresence, type PresencesAnswer, type UserLegacyPresence, type WebsitePresence } from './presence_dicts.js';

export { OFFLINE_THRESHOLD_SECONDS };

/** Zulip's PRESENCE_PING_INTERVAL_SECS: how often clients report presence. */
export const PING_INTERVAL_SECONDS = 60;
/** Zulip's PRESENCE_UPDATE_MIN_FREQ_SECONDS: newer reports than this do not rewrite a timestamp. */
const UPDATE_MIN_FREQ_SECONDS = 55;
/** Zulip's PRESENCE_LEGACY_EVENT_OFFSET_FOR_ACTIVITY_SECONDS: active when last active this close to last connected. */
const LEGACY_ACTIVITY_OFFSET_SECONDS = 70;
/** Zulip's USER_LIMIT_FOR_SENDING_PRESENCE_UPDATE_EVENTS: bigger organizations only poll. */
const USER_LIMIT_FOR_PRESENCE_EVENTS = 100;
/** Without history_limit_days, presence older than two weeks is left out (Zulip's default). */
const DEFAULT_HISTORY_DAYS = 14;

export type PresenceStatus = 'active' | 'idle';

/** Zulip's format_legacy_presence_dict: one "website" entry, active if last active close to last connected. */
function legacyClientPresence(lastActive: number, lastConnected: number): WebsitePresence {
  const active = lastActive + LEGACY_ACTIVITY_OFFSET_SECONDS >= lastConnected;
  return { client: 'website', status: active ? 'active' : 'idle', timestamp: active ? lastActive : lastConnected, pushable: false };
}

/** Zulip's user_presence_datetime_with_date_joined_default: a user never active was last active when they joined. */
function times(row: ShownPresenceRow): { lastActive: number; lastConnected: number } {
  return { lastActive: row.last_active_time ?? row.date_joined, lastConnected: row.last_connected_time };
}

function modern(row: ShownPresenceRow): ModernPresence {
  const { lastActive, lastConnected } = times(row);
  return { active_timestamp: lastActive, idle_timestamp: lastConnected };
}

function legacy(row: ShownPresenceRow): LegacyPresence {
  const { lastActive, lastConnected } = times(row);
  const website = legacyClientPresence(lastActive, lastConnected);
  return { aggregated: { client: website.client, status: website.status, timestamp: website.timestamp }, website };
}

function presenceDicts(rows: readonly ShownPresenceRow[], slim: boolean): Record<string, ModernPresence | LegacyPresence> {
  const dicts: Record<string, ModernPresence | LegacyPresence> = {};
  for (const row of rows) {
    if (slim) dicts[String(row.user_id)] = modern(row);
    else dicts[row.email] = legacy(row);
  }
  return dicts;
}

export interface PresenceQuery {
  slimPresence?: boolean | undefined;
  /** The newest presence_last_update_id the client has; passing it selects the modern format. */
  lastUpdateId?: number | undefined;
  historyLimitDays?: number | undefined;
}

/** Zulip's get_presence_response. Call inside a transaction or a single read. */
function presenceResponse(ctx: Ctx, query: PresenceQuery): PresencesAnswer {
  const slim = query.slimPresence === true || query.lastUpdateId !== undefined;
  const since = ctx.now() - (query.historyLimitDays ?? DEFAULT_HISTORY_DAYS) * 86_400;
  const after = query.lastUpdateId ?? -1;
  // A client that already has data filters by update id alone; history_limit_days 0 asks for nothing.
  const rows = query.historyLimitDays === 0 ? [] : selectShownPresences(ctx.store, after, after > 0 ? Number.MIN_SAFE_INTEGER : since);
  const newest = rows.length > 0 ? rows.reduce((max, row) => Math.max(max, row.last_update_id), 0) : (query.lastUpdateId ?? -1);
  return { presences: presenceDicts(rows, slim), server_timestamp: ctx.clock() / 1000, presence_last_update_id: newest };
}

/**
 * Zulip's do_update_user_presence: a report rewrites a timestamp only when it is more than
 * UPDATE_MIN_FREQ_SECONDS newer; a user coming online (first report, or active after more than
 * OFFLINE_THRESHOLD - PING_INTERVAL - 10 seconds) is announced with a presence event.
 */
function recordPresence(ctx: Ctx, user: UserRow, status: PresenceStatus): void {
  const now = ctx.now();
  const row = selectPresence(ctx.store, user.id);
  const sinceActive = row?.last_active_time == null ? Infinity : now - row.last_active_time;
  const sinceConnected = row === undefined ? Infinity : now - row.last_connected_time;
  const becameOnline = status === 'active' && sinceActive > OFFLINE_THRESHOLD_SECONDS - PING_INTERVAL_SECONDS - 10;
  let lastActive = row?.last_active_time ?? null;
  let lastConnected = row?.last_connected_time ?? now;
  if (row === undefined) {
    if (status === 'active') lastActive = now;
  } else {
    if (sinceConnected > UPDATE_MIN_FREQ_SECONDS) lastConnected = now;
    if (status === 'active' && sinceActive > UPDATE_MIN_FREQ_SECONDS) {
      lastActive = now;
      if (now > lastConnected) lastConnected = now;
    }
    if (lastActive === row.last_active_time && lastConnected === row.last_connected_time) return;
  }
  upsertPresence(ctx.store, user.id, lastActive, lastConnected);
  if (row !== undefined && !becameOnline) return;
  const everyone = selectActiveUserIds(ctx.store);
  if (everyone.length > USER_LIMIT_FOR_PRESENCE_EVENTS) return;
  const website = legacyClientPresence(lastActive ?? user.date_joined, lastConnected);
  // Zulip's send_presence_changed: the legacy format, to every active user.
  emit(ctx, everyone, { type: 'presence', email: apiEmail(fakeEmailDomain(ctx), user), user_id: user.id, server_timestamp: ctx.clock() / 1000, presence: { website } });
}

export interface UpdatePresenceInput extends PresenceQuery {
  status: string;
  pingOnly?: boolean | undefined;
  /** Zulip counts it for usage statistics, which parley does not keep. */
  newUserInput?: boolean | undefined;
}

/**
 * POST /users/me/presence: records the caller's presence (unless presence_enabled is off, Zulip's
 * invisible mode) and, unless ping_only, answers with everyone's.
 */
export function updatePresence(ctx: Ctx, actor: Actor, input: UpdatePresenceInput): Partial<PresencesAnswer> {
  if (input.status !== 'active' && input.status !== 'idle') throw badRequest(`Invalid status: ${input.status}`);
  const status = input.status;
  return ctx.tx(() => {
    const user = existingUser(ctx, actor.id);
    if (user.presence_enabled === 1) recordPresence(ctx, user, status);
    return input.pingOnly ? {} : presenceResponse(ctx, input);
  });
}

/** GET /realm/presence: everyone's presence in the legacy format. */
export function getRealmPresence(ctx: Ctx, _actor: Actor): Omit<PresencesAnswer, 'presence_last_update_id'> {
  const { presences, server_timestamp } = presenceResponse(ctx, { slimPresence: false });
  return { presences, server_timestamp };
}

/** Python's int(): optional sign and surrounding whitespace, digits (underscores between them). */
const PYTHON_INT = /^\s*[+-]?\d+(_\d+)*\s*$/;

/** GET /users/{user_id_or_email}/presence: one active human's presence; "offline" when not heard from for a while. */
export function getUserPresence(
  ctx: Ctx,
  _actor: Actor,
  input: { userIdOrEmail: string; slimPresence?: boolean | undefined },
): { presence: ModernPresence | UserLegacyPresence } {
  const key = input.userIdOrEmail;
  const target = PYTHON_INT.test(key) ? selectUserById(ctx.store, Number(key.replaceAll('_', ''))) : selectUserByEmail(ctx.store, key);
  if (!target || target.is_active === 0) throw badRequest('No such user');
  if (target.bot_type !== null) throw badRequest('Presence is not supported for bot users.');
  const row = selectPresence(ctx.store, target.id);
  if (!row) throw badRequest(`No presence data for ${key}`);
  if (input.slimPresence) return { presence: modern(row) };
  // Zulip drops client and pushable here, and says "offline" for an aggregate older than the threshold.
  const presence: UserLegacyPresence = {};
  for (const [name, entry] of Object.entries(legacy(row))) presence[name] = { status: entry.status, timestamp: entry.timestamp };
  if (ctx.now() - presence.aggregated!.timestamp > OFFLINE_THRESHOLD_SECONDS) presence.aggregated!.status = 'offline';
  return { presence };
}

/** POST /register state for the fetch type `presence` (Zulip's fetch_initial_state_data). */
export function fetchPresenceState(ctx: Ctx, _actor: Actor, options: StateOptions): PresencesAnswer {
  return presenceResponse(ctx, {
    slimPresence: options.slimPresence,
    lastUpdateId: options.presenceLastUpdateId,
    historyLimitDays: options.presenceHistoryLimitDays,
  });
}
