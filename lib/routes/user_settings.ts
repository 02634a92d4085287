// PATCH /settings: the caller's own settings (Zulip's json_change_settings); parameters parley does
// not know are reported in ignored_parameters_unsupported.
import { z } from 'zod';
import { updateSettings } from '../domain/user_settings.js';
import { USER_SETTINGS, settingValueSchema, type SettingSpec, type SettingValue } from '../domain/user_setting_types.js';
import { bool, json, maxCodePoints, str, type Param } from '../http/params.js';
import { MAX_EMAIL_LENGTH, MAX_PASSWORD_LENGTH } from './limits.js';
import { noFields, route } from './route.js';

/** Zulip's parameter types: JSON booleans and integers, plain strings; a closed list of values where Zulip has one. */
function settingParam(spec: SettingSpec): Param<z.ZodType<SettingValue>, false> {
  const { kind } = spec;
  if (kind.type === 'bool') return bool().optional();
  return (kind.type === 'int' ? json(settingValueSchema(kind)) : str(settingValueSchema(kind))).optional();
}

/** Each setting's parameter name (`enter_sends` is sent as itself, named `enterSends` here and in-process). */
const SETTING_NAMES = Object.keys(USER_SETTINGS).map((wire) => [wire, wire.replace(/_([a-z0-9])/g, (_, letter: string) => letter.toUpperCase())] as const);

const settingParams: Record<string, Param<z.ZodType<SettingValue>, false>> = Object.fromEntries(
  SETTING_NAMES.map(([wire, name]) => [name, settingParam(USER_SETTINGS[wire]!)]),
);

export const userSettingsRoutes = {
  update: route({
    method: 'PATCH',
    path: '/settings',
    access: 'human',
    summary: "Change the calling user's settings",
    params: {
      ...settingParams,
      fullName: str().optional(),
      email: str(maxCodePoints(MAX_EMAIL_LENGTH)).optional().describe('A new email address: changed once the link sent to it is followed'),
      oldPassword: str(maxCodePoints(MAX_PASSWORD_LENGTH)).optional(),
      newPassword: str(maxCodePoints(MAX_PASSWORD_LENGTH)).optional(),
      emailAddressVisibility: json(z.union([z.literal(1), z.literal(2), z.literal(3), z.literal(4), z.literal(5)]))
        .optional()
        .describe('Who sees your real email: 1 everyone, 2 members, 3 administrators, 4 nobody, 5 moderators'),
      presenceEnabled: bool().optional(),
      enableDraftsSynchronization: bool().optional(),
      timezone: str().optional(),
    },
    response: noFields,
    errors: ['BAD_REQUEST', 'RATE_LIMIT_HIT'],
    handler: (ctx, { actor, credential }, p) =>
      updateSettings(
        ctx,
        actor,
        { ...p, settings: Object.fromEntries(SETTING_NAMES.map(([wire, name]) => [wire, (p as Partial<Record<string, SettingValue>>)[name]])) },
        credential.kind === 'session' ? credential.sessionId : null,
      ),
  }),
};
