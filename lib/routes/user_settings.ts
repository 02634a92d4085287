// PATCH /settings: the caller's own settings (Zulip's json_change_settings); parameters parley does
// not know are reported in ignored_parameters_unsupported.
import { z } from 'zod';
import { updateSettings } from '../domain/user_settings.js';
import { USER_SETTINGS, settingValueSchema, type SettingSpec, type SettingValue } from '../domain/user_setting_types.js';
import { bool, json, maxCodePoints, str, type Param } from '../http/params.js';
import { MAX_PASSWORD_LENGTH } from './limits.js';
import { noFields, route } from './route.js';

/** Zulip's parameter types: JSON booleans and integers, plain strings; a closed list of values where Zulip has one. */
function settingParam(spec: SettingSpec): Param<z.ZodType<SettingValue>, false> {
  const { kind } = spec;
  if (kind.type === 'bool') return bool().optional();
  return (kind.type === 'int' ? json(settingValueSchema(kind)) : str(settingValueSchema(kind))).optional();
}

const settingParams = Object.fromEntries(Object.entries(USER_SETTINGS).map(([name, spec]) => [name, settingParam(spec)])) as Record<
  string,
  Param<z.ZodType<SettingValue>, false>
>;

export const userSettingsRoutes = {
  update: route({
    method: 'PATCH',
    path: '/settings',
    access: 'human',
    summary: "Change the calling user's settings",
    params: {
      ...settingParams,
      full_name: str().optional(),
      email: str().optional(),
      old_password: str(maxCodePoints(MAX_PASSWORD_LENGTH)).optional(),
      new_password: str(maxCodePoints(MAX_PASSWORD_LENGTH)).optional(),
      email_address_visibility: json(z.union([z.literal(1), z.literal(2), z.literal(3), z.literal(4), z.literal(5)]))
        .optional()
        .describe('Who sees your real email: 1 everyone, 2 members, 3 administrators, 4 nobody, 5 moderators'),
      presence_enabled: bool().optional(),
      enable_drafts_synchronization: bool().optional(),
      timezone: str().optional(),
    },
    response: noFields,
    errors: ['BAD_REQUEST'],
    handler: (ctx, actor, p) =>
      updateSettings(ctx, actor, {
        settings: Object.fromEntries(Object.keys(USER_SETTINGS).map((name) => [name, (p as Record<string, unknown>)[name] as SettingValue | undefined])),
        fullName: p.full_name,
        email: p.email,
        oldPassword: p.old_password,
        newPassword: p.new_password,
        emailAddressVisibility: p.email_address_visibility,
        presenceEnabled: p.presence_enabled,
        enableDraftsSynchronization: p.enable_drafts_synchronization,
        timezone: p.timezone,
      }),
  }),
};
