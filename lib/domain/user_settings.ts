// The personal settings: Zulip's `user_settings` object in POST /register, the organization's
// `realm_user_settings_defaults`, and PATCH /settings (Zulip's json_change_settings): the settings
// of lib/domain/user_setting_types.ts, full_name, new_password, email_address_visibility,
// presence_enabled, enable_drafts_synchronization and timezone, each change a user_settings event.
import type { Ctx } from '../context.js';
import type { StateOptions } from './state_options.js';
import { badRequest } from '../errors.js';
import { deleteDraftsOfUser } from '../store/drafts.js';
import { deleteUserSetting, selectUserSettings, upsertUserSetting } from '../store/user_settings.js';
import {
  selectActiveUserIds,
  selectActiveUserRoles,
  updateUserDraftsSynchronization,
  updateUserEmailAddressVisibility,
  updateUserPresenceEnabled,
  updateUserTimezone,
} from '../store/users.js';
import { hashPassword, verifyPassword } from './credentials.js';
import { startEmailChange } from '../accounts/email_change.js';
import { changeOwnPassword } from '../accounts/passwords.js';
import { apiEmail, fakeEmailDomain } from './email_visibility.js';
import { getRealm } from './realm.js';
import { canAccessDeliveryEmail, type Actor } from './roles.js';
import {
  EMOJISET_CHOICES,
  LANGUAGE_CODES,
  MAX_EMAIL_BATCHING_PERIOD_SECONDS,
  NOTIFICATION_SOUNDS,
  USER_SETTINGS,
  settingDefault,
  type RealmUserSettingsDefaultsState,
  type SettingValue,
  type UserSettingsState,
} from './user_setting_types.js';
import { emit } from './event_types.js';
import { changeFullName, checkFullName, existingUser, isStrongPassword } from './users.js';

export function fetchUserSettingsState(ctx: Ctx, actor: Actor, _options: StateOptions): UserSettingsState {
  const row = existingUser(ctx, actor.id);
  const stored = selectUserSettings(ctx.store, actor.id);
  const settings: Record<string, SettingValue> = {};
  for (const name of Object.keys(USER_SETTINGS)) settings[name] = (stored.get(name) as SettingValue | undefined) ?? settingDefault(ctx, name)!;
  return {
    user_settings: {
      ...settings,
      presence_enabled: row.presence_enabled === 1,
      enable_drafts_synchronization: row.enable_drafts_synchronization === 1,
      timezone: row.timezone,
      email_address_visibility: row.email_address_visibility,
      emojiset_choices: [...EMOJISET_CHOICES],
    },
  };
}

/** One setting of lib/domain/user_setting_types.ts for a user: the stored value, else the server's default. */
export function userSetting(ctx: Ctx, userId: number, name: keyof typeof USER_SETTINGS): SettingValue {
  return (selectUserSettings(ctx.store, userId).get(name) as SettingValue | undefined) ?? settingDefault(ctx, name)!;
}

export function fetchRealmUserSettingsDefaultsState(ctx: Ctx, _actor: Actor, _options: StateOptions): RealmUserSettingsDefaultsState {
  return { realm_user_settings_defaults: { email_address_visibility: getRealm(ctx).defaultEmailAddressVisibility } };
}

export interface SettingsInput {
  /** Settings of USER_SETTINGS by name, values already of their kind. */
  settings?: Readonly<Record<string, SettingValue | undefined>>;
  fullName?: string | undefined;
  email?: string | undefined;
  oldPassword?: string | undefined;
  newPassword?: string | undefined;
  emailAddressVisibility?: number | undefined;
  presenceEnabled?: boolean | undefined;
  enableDraftsSynchronization?: boolean | undefined;
  timezone?: string | undefined;
}

/** Zulip's language name for a code (the event's language_name): the language's own name for itself. */
function languageName(code: string): string {
  const tag = code.replace('_', '-');
  return new Intl.DisplayNames([tag], { type: 'language' }).of(tag) ?? code;
}

/** Zulip's check_timezone: a tz database name, spelled as the database does (aliases included). */
function isTimezone(name: string): boolean {
  try {
    const resolved = new Intl.DateTimeFormat('en', { timeZone: name }).resolvedOptions().timeZone;
    return resolved === name || resolved.toLowerCase() !== name.toLowerCase() || Intl.supportedValuesOf('timeZone').includes(name);
  } catch {
    return false;
  }
}

/** Zulip's check_settings_values, and the time zone: the checks a parameter's type cannot make. */
function checkSettingValues(input: SettingsInput): void {
  const settings = input.settings ?? {};
  const language = settings.default_language;
  if (language !== undefined && !(LANGUAGE_CODES as readonly string[]).includes(String(language))) throw badRequest('Invalid default_language');
  const sound = settings.notification_sound;
  if (sound !== undefined && !(NOTIFICATION_SOUNDS as readonly string[]).includes(String(sound))) {
    throw badRequest(`Invalid notification sound '${String(sound)}'`);
  }
  const period = settings.email_notifications_batching_period_seconds;
  if (typeof period === 'number' && (period <= 0 || period > MAX_EMAIL_BATCHING_PERIOD_SECONDS)) {
    throw badRequest(`Invalid email batching period: ${period} seconds`);
  }
  if (input.timezone !== undefined && !isTimezone(input.timezone)) throw badRequest('timezone is not a recognized time zone');
}

/**
 * PATCH /settings: the caller's own settings, in Zulip's order (values, password, email, name,
 * settings, time zone); a value equal to the current one changes nothing and sends no event.
 * Everything is checked before anything is written; only a password change answers a promise.
 */
export function updateSettings(
  ctx: Ctx,
  actor: Actor,
  input: SettingsInput,
  /** The web session the request came with: a new password ends the caller's other sessions, not this one. */
  sessionId: number | null = null,
): Record<string, never> | Promise<Record<string, never>> {
  checkSettingValues(input);
  if (input.newPassword === undefined) return applySettings(ctx, actor, input, undefined, sessionId);
  return newPasswordHash(ctx, actor, input.oldPassword ?? '', input.newPassword).then((hash) => applySettings(ctx, actor, input, hash, sessionId));
}

/** Zulip's checks of a password change: the old password, then the new one's strength. */
async function newPasswordHash(ctx: Ctx, actor: Actor, oldPassword: string, newPassword: string): Promise<string> {
  if (!(await verifyPassword(oldPassword, existingUser(ctx, actor.id).password_hash))) throw badRequest('Wrong password!');
  if (!isStrongPassword(newPassword)) throw badRequest('New password is too weak!');
  return hashPassword(newPassword, ctx.random);
}

function applySettings(ctx: Ctx, actor: Actor, input: SettingsInput, passwordHash: string | undefined, sessionId: number | null): Record<string, never> {
  return ctx.tx(() => {
    const row = existingUser(ctx, actor.id);
    if (passwordHash !== undefined) changeOwnPassword(ctx, actor.id, passwordHash, sessionId);
    // The address changes once the link sent to it is followed (lib/accounts/email_change.ts).
    const newEmail = input.email?.trim();
    if (newEmail !== undefined && newEmail !== row.email) startEmailChange(ctx, row, newEmail);
    const fullName = input.fullName === undefined ? undefined : checkFullName(input.fullName);
    if (fullName !== undefined) changeFullName(ctx, row, fullName);
    const stored = selectUserSettings(ctx.store, actor.id);
    for (const [name, value] of Object.entries(input.settings ?? {})) {
      const fallback = settingDefault(ctx, name);
      if (value === undefined || fallback === undefined || (stored.get(name) ?? fallback) === value) continue;
      if (value === fallback) deleteUserSetting(ctx.store, actor.id, name);
      else upsertUserSetting(ctx.store, actor.id, name, value);
      settingChanged(ctx, actor.id, name, value);
    }
    setColumnSettings(ctx, actor, input);
    return {};
  });
}

/** Zulip's user_settings update event; default_language's also names the language. */
function settingChanged(ctx: Ctx, userId: number, property: string, value: SettingValue): void {
  const language = property === 'default_language' ? { language_name: languageName(String(value)) } : {};
  emit(ctx, [userId], { type: 'user_settings', op: 'update', property, value, ...language });
}

/** The settings kept on the user row. */
function setColumnSettings(ctx: Ctx, actor: Actor, input: SettingsInput): void {
  const row = existingUser(ctx, actor.id);
  if (input.emailAddressVisibility !== undefined) setEmailAddressVisibility(ctx, actor, input.emailAddressVisibility);
  if (input.presenceEnabled !== undefined && input.presenceEnabled !== (row.presence_enabled === 1)) {
    updateUserPresenceEnabled(ctx.store, actor.id, input.presenceEnabled);
    settingChanged(ctx, actor.id, 'presence_enabled', input.presenceEnabled);
  }
  if (input.enableDraftsSynchronization !== undefined && input.enableDraftsSynchronization !== (row.enable_drafts_synchronization === 1)) {
    updateUserDraftsSynchronization(ctx.store, actor.id, input.enableDraftsSynchronization);
    // Zulip deletes the synchronized drafts, without draft events: only syncing stopped.
    if (!input.enableDraftsSynchronization) deleteDraftsOfUser(ctx.store, actor.id);
    settingChanged(ctx, actor.id, 'enable_drafts_synchronization', input.enableDraftsSynchronization);
  }
  if (input.timezone !== undefined && input.timezone !== row.timezone) {
    updateUserTimezone(ctx.store, actor.id, input.timezone);
    settingChanged(ctx, actor.id, 'timezone', input.timezone);
    const person = { email: apiEmail(fakeEmailDomain(ctx), row), user_id: actor.id, timezone: input.timezone };
    emit(ctx, selectActiveUserIds(ctx.store), { type: 'realm_user', op: 'update', person });
  }
}

/**
 * Zulip's do_change_user_setting for email_address_visibility: the user_settings event to the
 * user; a realm_user update with the real email (or null) to each user whose access changed
 * (send_delivery_email_update_events); and, when the API email changes (to or from "everyone"),
 * a realm_user update with `new_email` to everyone.
 */
function setEmailAddressVisibility(ctx: Ctx, actor: Actor, visibility: number): void {
  const before = existingUser(ctx, actor.id);
  if (before.email_address_visibility === visibility) return;
  updateUserEmailAddressVisibility(ctx.store, actor.id, visibility);
  const after = { ...before, email_address_visibility: visibility };
  emit(ctx, [actor.id], { type: 'user_settings', op: 'update', property: 'email_address_visibility', value: visibility });

  const nowSeeing: number[] = [];
  const noLongerSeeing: number[] = [];
  for (const viewer of selectActiveUserRoles(ctx.store)) {
    const saw = canAccessDeliveryEmail(viewer, before);
    const sees = canAccessDeliveryEmail(viewer, after);
    if (sees && !saw) nowSeeing.push(viewer.id);
    if (saw && !sees) noLongerSeeing.push(viewer.id);
  }
  if (nowSeeing.length > 0) {
    emit(ctx, nowSeeing, { type: 'realm_user', op: 'update', person: { user_id: actor.id, delivery_email: before.email } });
  }
  if (noLongerSeeing.length > 0) {
    emit(ctx, noLongerSeeing, { type: 'realm_user', op: 'update', person: { user_id: actor.id, delivery_email: null } });
  }

  const domain = fakeEmailDomain(ctx);
  if (apiEmail(domain, before) !== apiEmail(domain, after)) {
    emit(ctx, null, { type: 'realm_user', op: 'update', person: { user_id: actor.id, new_email: apiEmail(domain, after) } });
  }
}
