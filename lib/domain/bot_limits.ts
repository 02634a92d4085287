// Who may have bots, and how many: the organization's bot creation policy (Zulip's
// bot_creation_policy, options.botCreationPolicy) and the active bots one user may own
// (options.limits.botsPerUser; Zulip has no such limit). Each bot has its own rate-limit budget,
// event queues and bot storage: the limit keeps what one member can do bounded.
import type { Ctx } from '../context.js';
import { badRequest, mustBeAdmin } from '../errors.js';
import { countActiveBotsOwnedBy, selectUserById } from '../store/users.js';
import { isAdmin, isGuest, type Actor } from './roles.js';
import type { BotCreationGroups } from './realm_dicts.js';

/** Zulip's Realm.BOT_CREATION_EVERYONE, BOT_CREATION_LIMIT_GENERIC_BOTS, BOT_CREATION_ADMINS_ONLY. */
export const BOT_CREATION_POLICY = { everyone: 1, limitGenericBots: 2, adminsOnly: 3 } as const;
export type BotCreationPolicy = (typeof BOT_CREATION_POLICY)[keyof typeof BOT_CREATION_POLICY];

/** The default of `limits.botsPerUser`. */
export const DEFAULT_BOTS_PER_USER = 10;

/** Zulip's UserProfile.INCOMING_WEBHOOK_BOT. */
const INCOMING_WEBHOOK_BOT = 2;

export function botCreationPolicy(ctx: Ctx): BotCreationPolicy {
  return ctx.options.botCreationPolicy ?? BOT_CREATION_POLICY.everyone;
}

export function botsPerUser(ctx: Ctx): number {
  return ctx.options.limits?.botsPerUser ?? DEFAULT_BOTS_PER_USER;
}

/** Who creates what under a policy: bots of every type, and incoming webhook bots. */
function mayCreate(ctx: Ctx, user: { role: number; isBot: boolean }): { all: boolean; writeOnly: boolean } {
  if (user.isBot || isGuest(user)) return { all: false, writeOnly: false };
  if (isAdmin(user)) return { all: true, writeOnly: true };
  const policy = botCreationPolicy(ctx);
  return { all: policy === BOT_CREATION_POLICY.everyone, writeOnly: policy !== BOT_CREATION_POLICY.adminsOnly };
}

/**
 * The policy as Zulip's can_create_bots_group and can_create_write_only_bots_group (feature level
 * 344: members, or administrators; policy 2 became administrators and members). parley has no
 * system groups to name, so each user is told of themselves: the value holds the caller, or no one.
 */
export function botCreationGroups(ctx: Ctx, user: Actor): BotCreationGroups {
  const may = mayCreate(ctx, user);
  const only = (yes: boolean) => ({ direct_members: yes ? [user.id] : [], direct_subgroups: [] });
  return { can_create_bots_group: only(may.all), can_create_write_only_bots_group: only(may.writeOnly) };
}

/**
 * Zulip's check_bot_creation_policy: administrators always may; under policy 3 no one else, under
 * policy 2 others create incoming webhook bots only.
 */
export function checkBotCreationPolicy(ctx: Ctx, actor: Actor, botType: number): void {
  const may = mayCreate(ctx, actor);
  if (!(may.all || (may.writeOnly && botType === INCOMING_WEBHOOK_BOT))) throw mustBeAdmin();
}

/**
 * In the write transaction that would give `ownerId` one more active bot (creating or
 * reactivating one): refused when the owner, unless an administrator, has the most already.
 */
export function checkMayOwnAnotherBot(ctx: Ctx, ownerId: number): void {
  const owner = selectUserById(ctx.store, ownerId);
  if (owner === undefined || isAdmin(owner)) return;
  const limit = botsPerUser(ctx);
  if (countActiveBotsOwnedBy(ctx.store, ownerId) >= limit) throw badRequest(`Too many active bots (limit: ${limit} per user).`);
}
