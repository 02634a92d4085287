// Zulip's Notification Bot, which tells a referrer that their invitation was accepted (Zulip's
// process_new_human_user). parley makes it the first time it is needed: a generic bot with no
// owner, notification-bot@<the organization's bot domain>, that no one holds the key of.
import type { Ctx } from '../context.js';
import { selectUserByEmail } from '../store/users.js';
import { toActor } from '../domain/callers.js';
import { sendMessage } from '../domain/message_send.js';
import { botDomain, getRealm } from '../domain/realm.js';
import type { Actor } from '../domain/roles.js';
import { createAccount } from '../domain/users.js';

const GENERIC_BOT = 1;

function notificationBot(ctx: Ctx): Actor {
  const email = `notification-bot@${botDomain(getRealm(ctx))}`;
  const existing = selectUserByEmail(ctx.store, email);
  if (existing !== undefined) return toActor(existing);
  createAccount(ctx, { email, fullName: 'Notification Bot', botType: GENERIC_BOT, botOwnerId: null }, null);
  return toActor(selectUserByEmail(ctx.store, email)!);
}

/** In the caller's transaction: a direct message from Notification Bot to `userId`. */
export function notify(ctx: Ctx, userId: number, content: string): void {
  sendMessage(ctx, notificationBot(ctx), { type: 'private', to: [userId], content }, 'Internal');
}
