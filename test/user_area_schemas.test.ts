// The domain's schemas of users, bots, settings, status, presence, muted users, alert words,
// custom emoji and linkifiers are exact: every event those features store, and every part of
// POST /register they fill, parses to itself (zod drops unknown keys, so an extra field shows as a
// difference) and each event variant occurs.
import t from 'tap';
import { z } from 'zod';
import { botEventSchemas, realmBotStateSchema } from '../lib/domain/bot_dicts.js';
import { presenceEventSchemas, presencesAnswerSchema } from '../lib/domain/presence_dicts.js';
import { linkifierStateSchema, realmEmojiStateSchema, realmEventSchemas, realmStateSchema } from '../lib/domain/realm_dicts.js';
import { alertWordsSchema, mutedUsersStateSchema, realmUserStateSchema, userEventSchemas, userStatusStateSchema } from '../lib/domain/user_dicts.js';
import { realmUserSettingsDefaultsStateSchema, userSettingsEventSchemas, userSettingsStateSchema } from '../lib/domain/user_setting_types.js';
import { startServer } from './helpers.js';
import { uploadEmoji } from './user_status_helpers.js';

const s = await startServer();
t.teardown(() => s.close());
const admin = await s.user('admin');
const member = await s.user('member');

async function ok(method: string, path: string, as: typeof member, params: Record<string, unknown> = {}): Promise<Record<string, any>> {
  const reply = await s.request(method, path, { as, params });
  t.equal(reply.status, 200, `${method} ${path}: ${JSON.stringify(reply.body)}`);
  return reply.body;
}

// Every kind of event of these features.
t.before(async () => {
  const bot = await ok('POST', '/bots', member, { full_name: 'Helper Bot', short_name: 'helper' });
  await ok('PATCH', `/users/${member.user_id}`, s.owner, { full_name: 'Renamed Member', role: 300 });
  await ok('PATCH', `/users/${bot.user_id}`, member, { full_name: 'Renamed Bot' });
  await ok('POST', `/bots/${bot.user_id}/api_key/regenerate`, member);
  await ok('DELETE', `/users/${member.user_id}`, s.owner);
  // The bot's owner is deactivated: the bot passes to the administrator reactivating it.
  await ok('POST', `/users/${bot.user_id}/reactivate`, admin);
  await ok('POST', `/users/${member.user_id}/reactivate`, s.owner);
  await ok('PATCH', '/settings', member, { email_address_visibility: 4, timezone: 'Europe/Paris', default_language: 'de', twenty_four_hour_time: true });
  await ok('POST', '/users/me/status', member, { status_text: 'Lunch', emoji_name: 'smile', away: true });
  await ok('POST', '/users/me/presence', admin, { status: 'active' });
  await ok('POST', `/users/me/muted_users/${admin.user_id}`, member);
  await ok('POST', '/users/me/alert_words', member, { alert_words: JSON.stringify(['parley']) });
  t.equal((await uploadEmoji(s, admin, 'wave')).status, 200, 'a custom emoji');
  await ok('POST', '/realm/filters', s.owner, { pattern: '#(?P<id>[0-9]+)', url_template: 'https://example.com/issues/{id}' });
});

const areaEventSchema = z.union([...userEventSchemas, ...botEventSchemas, ...userSettingsEventSchemas, ...presenceEventSchemas, ...realmEventSchemas]);
const areaTypes = new Set(['realm_user', 'realm_bot', 'user_settings', 'user_status', 'presence', 'muted_users', 'alert_words', 'realm_emoji', 'realm_linkifiers']);

/** What tells the variants apart: type, op, and for updates the changed fields. */
function variant(event: Record<string, any>): string {
  const changed = event.op === 'update' ? (event.person ?? event.bot) : undefined;
  return [event.type, event.op, changed && Object.keys(changed).sort().join(',')].filter(Boolean).join(' ');
}

t.test('every event of the area parses to itself', async (t) => {
  const seen = new Set<string>();
  for (const row of s.db.prepare('SELECT type, payload FROM event ORDER BY id').all() as { type: string; payload: string }[]) {
    if (!areaTypes.has(row.type)) continue;
    const event = JSON.parse(row.payload) as Record<string, any>;
    const parsed = areaEventSchema.safeParse(event);
    if (!parsed.success) t.fail(`${variant(event)}: ${parsed.error.message}`);
    else t.strictSame(parsed.data, event, variant(event));
    seen.add(variant(event));
  }
  for (const wanted of [
    'realm_user add',
    'realm_user update full_name,user_id',
    'realm_user update role,user_id',
    'realm_user update is_active,user_id',
    'realm_user update bot_owner_id,user_id',
    'realm_user update delivery_email,user_id',
    'realm_user update new_email,user_id',
    'realm_user update email,timezone,user_id',
    'realm_bot add',
    'realm_bot update full_name,user_id',
    'realm_bot update api_key,user_id',
    'realm_bot update is_active,user_id',
    'realm_bot update owner_id,user_id',
    'realm_bot delete',
    'user_settings update',
    'user_status',
    'presence',
    'muted_users',
    'alert_words',
    'realm_emoji update',
    'realm_linkifiers',
  ]) {
    t.ok(seen.has(wanted), `an event: ${wanted}`);
  }
});

t.test('each /register part of the area parses to itself', async (t) => {
  for (const slim of [true, false]) {
    const body = await ok('POST', '/register', member, { slim_presence: slim, client_capabilities: JSON.stringify({ linkifier_url_template: true }) });
    const sources = {
      realm: realmStateSchema,
      realm_user: realmUserStateSchema,
      realm_bot: realmBotStateSchema,
      presence: presencesAnswerSchema,
      user_status: userStatusStateSchema,
      user_settings: userSettingsStateSchema,
      realm_user_settings_defaults: realmUserSettingsDefaultsStateSchema,
      realm_emoji: realmEmojiStateSchema,
      realm_linkifiers: linkifierStateSchema,
      alert_words: alertWordsSchema,
      muted_users: mutedUsersStateSchema,
    };
    for (const [name, schema] of Object.entries(sources)) {
      const part = Object.fromEntries(Object.keys(schema.shape).map((key) => [key, body[key]]));
      const parsed = schema.safeParse(part);
      if (!parsed.success) t.fail(`${name}: ${parsed.error.message}`);
      else t.strictSame(parsed.data, part, `${name} (slim_presence ${slim})`);
    }
    t.ok(body.realm_emoji && Object.keys(body.realm_emoji).length === 1 && body.realm_linkifiers.length === 1, 'the parts are not empty');
  }
});
