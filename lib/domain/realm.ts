// The organization (Zulip's realm) and GET /server_settings.
import { randomUUID } from 'node:crypto';
import type { Ctx } from '../context.js';
import { EMAIL_VISIBILITY } from './roles.js';
import { gravatarHash } from './avatars.js';
import type { ServerSettings } from './realm_dicts.js';
import { renderDescription } from './descriptions.js';
import { insertRealm, selectRealm, updateRealmName, updateRealmUrl, type RealmRow } from '../store/users.js';

/** The Zulip version and feature level whose behaviour parley implements. */
export const ZULIP_VERSION = '12.0-parley';
export const ZULIP_FEATURE_LEVEL = 478;
export const ZULIP_MERGE_BASE = '12.0';

const DEFAULT_REALM_NAME = 'parley';
const DEFAULT_REALM_URL = 'http://localhost:9991';

export interface Realm {
  name: string;
  url: string;
  uuid: string;
  description: string;
  dateCreated: number;
  pushNotificationsEnabled: boolean;
  /** The email_address_visibility of new users (Zulip's realm_user_settings_defaults). */
  defaultEmailAddressVisibility: number;
  /** Chosen by an operator or embedder; otherwise `parley serve` moves it to where it listens. */
  urlChosen: boolean;
}

function toRealm(row: RealmRow): Realm {
  return {
    name: row.name,
    url: row.url,
    uuid: row.uuid,
    description: row.description,
    dateCreated: row.date_created,
    pushNotificationsEnabled: row.push_notifications_enabled === 1,
    defaultEmailAddressVisibility: row.default_email_address_visibility,
    urlChosen: row.url_chosen === 1,
  };
}

/**
 * The organization URL as stored: an absolute http(s) URL without trailing slashes. Anything else
 * is a configuration mistake (bot emails and custom emoji URLs are derived from it): thrown at once.
 */
export function organizationUrl(url: string): string {
  let parsed: URL | undefined;
  try {
    parsed = new URL(url);
  } catch {
    parsed = undefined;
  }
  if (parsed === undefined || (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')) {
    throw new Error(`The organization URL must be an absolute http:// or https:// URL, not '${url}'`);
  }
  return url.replace(/\/+$/, '');
}

/** Creates the organization row on a new database (name, URL and UUID); a no-op afterwards. */
export function ensureRealm(ctx: Ctx): Realm {
  const existing = selectRealm(ctx.store);
  if (existing) return toRealm(existing);
  return ctx.tx(() => {
    const again = selectRealm(ctx.store);
    if (again) return toRealm(again);
    insertRealm(ctx.store, {
      name: ctx.options.realm?.name ?? DEFAULT_REALM_NAME,
      url: organizationUrl(ctx.options.realm?.url ?? DEFAULT_REALM_URL),
      uuid: randomUUID(),
      description: '',
      date_created: ctx.now(),
      default_email_address_visibility: ctx.options.realm?.emailAddressVisibility ?? EMAIL_VISIBILITY.admins,
      url_chosen: ctx.options.realm?.url === undefined ? 0 : 1,
    });
    return toRealm(selectRealm(ctx.store)!);
  });
}

/** Renames the organization or moves its URL (set-up only: no permission check, no event). */
export function configureRealm(ctx: Ctx, input: { name?: string | undefined; url?: string | undefined }): void {
  ctx.tx(() => {
    if (input.name !== undefined) updateRealmName(ctx.store, input.name);
    if (input.url !== undefined) updateRealmUrl(ctx.store, organizationUrl(input.url), true);
  });
}

/**
 * `parley serve` without --url: an organization URL nobody chose becomes the address the server
 * listens on, so clients that log in at `realm_url` (Zulip's mobile app, Zulip Terminal) reach it.
 * Returns the organization URL in force.
 */
export function followListeningUrl(ctx: Ctx, url: string): string {
  return ctx.tx(() => {
    const realm = getRealm(ctx);
    if (realm.urlChosen || realm.url === organizationUrl(url)) return realm.url;
    updateRealmUrl(ctx.store, organizationUrl(url), false);
    return getRealm(ctx).url;
  });
}

export function getRealm(ctx: Ctx): Realm {
  const row = selectRealm(ctx.store);
  return row ? toRealm(row) : ensureRealm(ctx);
}

/** The domain of bot emails: the organization URL's host, or a reserved name when that is an address. */
export function botDomain(realm: Realm): string {
  const host = new URL(realm.url).hostname;
  const isAddress = /^[\d.]+$/.test(host) || host.includes(':') || !host.includes('.');
  return isAddress ? 'parley.invalid' : host;
}

export function pushConfigured(ctx: Ctx): boolean {
  return Boolean(ctx.options.push?.bouncerUrl);
}

/**
 * The organization icon: parley has no uploaded icons, so it is Zulip's default with gravatar on
 * (zerver/lib/realm_icon.py): the identicon of the organization's string_id, which is empty for
 * the one organization of a server (as `sender_realm_str`).
 */
export const REALM_ICON_URL = `https://secure.gravatar.com/avatar/${gravatarHash('')}?d=identicon`;

/** Whether the organization can send push notifications: a bouncer is configured and allows it. */
export function pushNotificationsEnabled(ctx: Ctx, realm: Realm): boolean {
  return pushConfigured(ctx) && realm.pushNotificationsEnabled;
}

/** GET /server_settings: no authentication. */
export function serverSettings(ctx: Ctx): ServerSettings {
  const realm = getRealm(ctx);
  return {
    zulip_version: ZULIP_VERSION,
    zulip_feature_level: ZULIP_FEATURE_LEVEL,
    zulip_merge_base: ZULIP_MERGE_BASE,
    push_notifications_enabled: pushNotificationsEnabled(ctx, realm),
    is_incompatible: false,
    email_auth_enabled: true,
    require_email_format_usernames: true,
    authentication_methods: {
      password: true,
      dev: false,
      email: true,
      ldap: false,
      remoteuser: false,
      github: false,
      azuread: false,
      gitlab: false,
      apple: false,
      google: false,
      saml: false,
      'openid connect': false,
    },
    external_authentication_methods: [],
    realm_url: realm.url,
    realm_uri: realm.url,
    realm_name: realm.name,
    realm_icon: REALM_ICON_URL,
    realm_description: renderDescription(ctx, realm.description),
    realm_web_public_access_enabled: false,
  };
}
