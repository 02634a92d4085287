// The personal settings parley stores: Zulip's `user_settings` object and the organization's
// `realm_user_settings_defaults` in POST /register, and PATCH /settings (email_address_visibility).
// The user_settings update event is sent where a setting changes (user_status.ts: away).
import type { Ctx } from '../context.js';
import type { StateOptions } from '../events/state.js';
import { selectActiveUserRoles, selectUserById, updateUserEmailAddressVisibility } from '../store/users.js';
import { apiEmail, fakeEmailDomain } from './email_visibility.js';
import { getRealm } from './realm.js';
import { EMAIL_VISIBILITY, canAccessDeliveryEmail, type Actor } from './roles.js';

export function fetchUserSettingsState(ctx: Ctx, actor: Actor, _options: StateOptions): Record<string, unknown> {
  const row = selectUserById(ctx.store, actor.id)!;
  return {
    user_settings: {
      presence_enabled: row.presence_enabled === 1,
      enable_drafts_synchronization: row.enable_drafts_synchronization === 1,
      timezone: row.timezone,
      email_address_visibility: row.email_address_visibility,
    },
  };
}

export function fetchRealmUserSettingsDefaultsState(ctx: Ctx, _actor: Actor, _options: StateOptions): Record<string, unknown> {
  return { realm_user_settings_defaults: { email_address_visibility: getRealm(ctx).defaultEmailAddressVisibility } };
}

/** PATCH /settings: the caller's own settings; a value equal to the current one changes nothing. */
export function updateSettings(ctx: Ctx, actor: Actor, input: { emailAddressVisibility?: number | undefined }): Record<string, never> {
  return ctx.tx(() => {
    if (input.emailAddressVisibility !== undefined) setEmailAddressVisibility(ctx, actor, input.emailAddressVisibility);
    return {};
  });
}

/**
 * Zulip's do_change_user_setting for email_address_visibility: the user_settings event to the
 * user; a realm_user update with the real email (or null) to each user whose access changed
 * (send_delivery_email_update_events); and, when the API email changes (to or from "everyone"),
 * a realm_user update with `new_email` to everyone.
 */
function setEmailAddressVisibility(ctx: Ctx, actor: Actor, visibility: number): void {
  const before = selectUserById(ctx.store, actor.id)!;
  if (before.email_address_visibility === visibility) return;
  updateUserEmailAddressVisibility(ctx.store, actor.id, visibility);
  const after = { ...before, email_address_visibility: visibility };
  ctx.events.append([actor.id], { type: 'user_settings', op: 'update', property: 'email_address_visibility', value: visibility });

  const nowSeeing: number[] = [];
  const noLongerSeeing: number[] = [];
  for (const viewer of selectActiveUserRoles(ctx.store)) {
    const saw = canAccessDeliveryEmail(viewer, before);
    const sees = canAccessDeliveryEmail(viewer, after);
    if (sees && !saw) nowSeeing.push(viewer.id);
    if (saw && !sees) noLongerSeeing.push(viewer.id);
  }
  if (nowSeeing.length > 0) {
    ctx.events.append(nowSeeing, { type: 'realm_user', op: 'update', person: { user_id: actor.id, delivery_email: before.email } });
  }
  if (noLongerSeeing.length > 0) {
    ctx.events.append(noLongerSeeing, { type: 'realm_user', op: 'update', person: { user_id: actor.id, delivery_email: null } });
  }

  const domain = fakeEmailDomain(ctx);
  if (apiEmail(domain, before) !== apiEmail(domain, after)) {
    ctx.events.append(null, { type: 'realm_user', op: 'update', person: { user_id: actor.id, new_email: apiEmail(domain, after) } });
  }
}
