// User status: POST /users/{user_id}/status, POST
// /users/me/status, GET /users/{user_id}/status, each rule over HTTP and in-process.
import t, { type Test } from 'tap';
import { startServer, type TestUser } from './helpers.js';
import { OK, badRequest, camel, expectBoth, inProcess, outcomeOf, uploadEmoji } from './user_status_helpers.js';

const s = await startServer();
t.teardown(() => s.close());
const admin = await s.user('admin');

type Params = Record<string, unknown>;

/** POST /users/{id}/status over HTTP and in-process, both ending as `wanted`. */
function setStatus(tt: Test, as: TestUser, userId: number, params: Params, wanted: typeof OK | ReturnType<typeof badRequest>, label = '') {
  return expectBoth(
    tt,
    wanted,
    () => s.request('POST', `/users/${userId}/status`, { as, params }),
    () => s.chat.api.userStatus.update(as.user_id, { userId, ...camel(params) }),
    label,
  );
}

function setOwnStatus(tt: Test, as: TestUser, params: Params, wanted: typeof OK | ReturnType<typeof badRequest>, label = '') {
  return expectBoth(
    tt,
    wanted,
    () => s.request('POST', '/users/me/status', { as, params }),
    () => s.chat.api.userStatus.updateOwn(as.user_id, camel(params)),
    label,
  );
}

async function statusOf(userId: number): Promise<Record<string, unknown>> {
  const reply = await s.request('GET', `/users/${userId}/status`, { as: admin });
  return reply.body.status;
}

t.test('an administrator sets another user\'s status text and emoji; the answer is {result, msg}', async (t) => {
  const member = await s.user('member');
  const reply = await s.request('POST', `/users/${member.user_id}/status`, {
    as: admin,
    params: { status_text: 'In a meeting', emoji_name: 'car', emoji_code: '1f697', reaction_type: 'unicode_emoji' },
  });
  t.equal(reply.status, 200);
  t.same(reply.body, { result: 'success', msg: '' });
  t.same(await statusOf(member.user_id), { status_text: 'In a meeting', emoji_name: 'car', emoji_code: '1f697', reaction_type: 'unicode_emoji' });
  t.same(s.chat.api.userStatus.update(admin.user_id, { userId: member.user_id, statusText: 'Back soon' }), {});
  t.same(await statusOf(member.user_id), { status_text: 'Back soon', emoji_name: 'car', emoji_code: '1f697', reaction_type: 'unicode_emoji' });
});

t.test('owners may set statuses too, and an administrator may set their own through it', async (t) => {
  const member = await s.user('member');
  await setStatus(t, s.owner, member.user_id, { status_text: 'by the owner' }, OK);
  await setStatus(t, admin, admin.user_id, { status_text: 'by myself' }, OK);
  t.same(await statusOf(admin.user_id), { status_text: 'by myself' });
});

t.test('status_text is stripped, then limited to 60 code points (astral characters count once)', async (t) => {
  const member = await s.user('member');
  const sixty = '😀'.repeat(60);
  await setStatus(t, admin, member.user_id, { status_text: `  \t${sixty}\n  ` }, OK, '60 astral code points with surrounding whitespace');
  t.same(await statusOf(member.user_id), { status_text: sixty }, 'stored stripped');
  await setStatus(t, admin, member.user_id, { status_text: `${'x'.repeat(59)}😀` }, OK, '59 + 1 astral');
  const tooLong = badRequest('status_text is too long (limit: 60 characters)');
  await setStatus(t, admin, member.user_id, { status_text: '😀'.repeat(61) }, tooLong, '61 astral code points');
  await setStatus(t, admin, member.user_id, { status_text: ` ${'a'.repeat(61)} ` }, tooLong, '61 after stripping');
  t.same(await statusOf(member.user_id), { status_text: `${'x'.repeat(59)}😀` }, 'a refused update changes nothing');
});

t.test("status_text: the length check strips Unicode White_Space (pydantic), the stored text is Python's str.strip()", async (t) => {
  const member = await s.user('member');
  const sixty = 'a'.repeat(60);
  const fiftySix = 'a'.repeat(56);
  const tooLong = badRequest('status_text is too long (limit: 60 characters)');
  await setStatus(t, admin, member.user_id, { status_text: `\u0085 ${sixty}\u2003\u0085` }, OK, 'NEL and spaces around 60 letters do not count');
  t.same(await statusOf(member.user_id), { status_text: sixty });
  await setStatus(t, admin, member.user_id, { status_text: `${sixty}\u001f` }, tooLong, 'U+001C-U+001F are no White_Space: they count toward the limit');
  await setStatus(t, admin, member.user_id, { status_text: `\u001c\u001d${fiftySix}\u001e\u001f\u0085` }, OK, 'separators within the limit');
  t.same(await statusOf(member.user_id), { status_text: fiftySix }, 'then stored without them (str.strip())');
  await setStatus(t, admin, member.user_id, { status_text: '\ufeffBOM\ufeff' }, OK, 'zero-width no-break spaces');
  t.same(await statusOf(member.user_id), { status_text: '\ufeffBOM\ufeff' }, 'U+FEFF is not whitespace to Python');
  await setStatus(t, admin, member.user_id, { status_text: `\ufeff${sixty}` }, tooLong, 'U+FEFF counts toward the limit');
  await setOwnStatus(t, member, { status_text: '\u0085own\u001c' }, OK, 'POST /users/me/status strips the same');
  t.same(await statusOf(member.user_id), { status_text: 'own' });
});

t.test('the length is checked when parameters are parsed, before the user is looked up', async (t) => {
  const member = await s.user('member');
  const tooLong = badRequest('status_text is too long (limit: 60 characters)');
  await setStatus(t, admin, 999999, { status_text: 'a'.repeat(61) }, tooLong, 'unknown user');
  await setStatus(t, member, admin.user_id, { status_text: 'a'.repeat(61) }, tooLong, 'caller without permission');
});

t.test("'No such user' for an unknown id or a bot", async (t) => {
  const bot = await s.user('member', { bot: true });
  await setStatus(t, admin, 999999, { status_text: 'x' }, badRequest('No such user'), 'unknown id');
  await setStatus(t, admin, bot.user_id, { status_text: 'x' }, badRequest('No such user'), 'bot target');
});

t.test("'No such user' comes before 'Insufficient permission': a member calling gets it too", async (t) => {
  const member = await s.user('member');
  const bot = await s.user('member', { bot: true });
  await setStatus(t, member, 999999, { status_text: 'x' }, badRequest('No such user'), 'unknown id');
  await setStatus(t, member, bot.user_id, { status_text: 'x' }, badRequest('No such user'), 'bot target');
});

t.test("'User is deactivated', for administrators and everyone else", async (t) => {
  const gone = await s.user('member');
  const member = await s.user('member');
  s.chat.admin.deactivateUser(gone.user_id);
  await setStatus(t, admin, gone.user_id, { status_text: 'x' }, badRequest('User is deactivated'), 'administrator');
  await setStatus(t, member, gone.user_id, { status_text: 'x' }, badRequest('User is deactivated'), 'member');
});

t.test("'Insufficient permission' unless the caller is an administrator or owner", async (t) => {
  const target = await s.user('member');
  for (const role of ['moderator', 'member', 'guest'] as const) {
    const caller = await s.user(role);
    await setStatus(t, caller, target.user_id, { status_text: 'x' }, badRequest('Insufficient permission'), role);
    await setStatus(t, caller, caller.user_id, { status_text: 'x' }, badRequest('Insufficient permission'), `${role} on their own id`);
  }
  const member = await s.user('member');
  await setStatus(t, member, target.user_id, {}, badRequest('Insufficient permission'), 'permission comes before "no new values"');
  t.same(await statusOf(target.user_id), {}, 'nothing was set');
});

t.test('bots with the administrator or owner role may set statuses (feature level 473); other bots may not', async (t) => {
  const target = await s.user('member');
  const adminBot = await s.user('admin', { bot: true });
  const ownerBot = await s.user('owner', { bot: true });
  const memberBot = await s.user('member', { bot: true });
  await setStatus(t, adminBot, target.user_id, { status_text: 'set by a bot' }, OK, 'administrator bot');
  await setStatus(t, ownerBot, target.user_id, { emoji_name: 'zulip' }, OK, 'owner bot');
  await setStatus(t, memberBot, target.user_id, { status_text: 'no' }, badRequest('Insufficient permission'), 'member bot');
  t.same(await statusOf(target.user_id), { status_text: 'set by a bot', emoji_name: 'zulip', emoji_code: 'zulip', reaction_type: 'service_extra_emoji' });
});

t.test("'Client did not pass any new values.' when neither status_text nor emoji_name is sent", async (t) => {
  const target = await s.user('member');
  const none = badRequest('Client did not pass any new values.');
  await setStatus(t, admin, target.user_id, {}, none, 'nothing');
  await setStatus(t, admin, target.user_id, { emoji_code: '1f697' }, none, 'only emoji_code');
  await setStatus(t, admin, target.user_id, { reaction_type: 'unicode_emoji', emoji_code: '1f697' }, none, 'emoji_code and reaction_type');
  const away = await s.request('POST', `/users/${target.user_id}/status`, { as: admin, params: { away: true } });
  t.same(outcomeOf(away), none, 'away is not a parameter of this endpoint');
});

t.test("'Client must pass emoji_name if they pass either emoji_code or reaction_type.'", async (t) => {
  const target = await s.user('member');
  const msg = badRequest('Client must pass emoji_name if they pass either emoji_code or reaction_type.');
  await setStatus(t, admin, target.user_id, { status_text: 'x', emoji_code: '1f697' }, msg, 'emoji_code');
  await setStatus(t, admin, target.user_id, { status_text: 'x', reaction_type: 'unicode_emoji' }, msg, 'reaction_type');
  await setStatus(t, admin, target.user_id, { status_text: 'x', emoji_code: '', reaction_type: '' }, OK, 'empty strings are tolerated');
  t.same(await statusOf(target.user_id), { status_text: 'x' });
});

t.test('emoji_name alone: the code and type are looked up (Unicode codes without FE0F)', async (t) => {
  const target = await s.user('member');
  const cases: [string, string][] = [['car', '1f697'], ['red_car', '1f697'], ['heart', '2764'], ['+1', '1f44d'], ['flag-fr', '1f1eb-1f1f7']];
  // Zulip's names and aliases (smile is 1f642 in Zulip's map), then names only the emoji-datasource package has.
  cases.push(['thumbs_up', '1f44d'], ['like', '1f44d'], ['smile', '1f642'], ['big_smile', '1f604'], ['octopus', '1f419'], ['love', '2764'], ['flag_france', '1f1eb-1f1f7'], ['thumbsup', '1f44d']);
  for (const [name, code] of cases) {
    await setStatus(t, admin, target.user_id, { emoji_name: name }, OK, name);
    t.same(await statusOf(target.user_id), { emoji_name: name, emoji_code: code, reaction_type: 'unicode_emoji' }, `${name} -> ${code}`);
  }
  await setStatus(t, admin, target.user_id, { emoji_name: 'zulip' }, OK, 'the extra emoji');
  t.same(await statusOf(target.user_id), { emoji_name: 'zulip', emoji_code: 'zulip', reaction_type: 'service_extra_emoji' });
  await setStatus(t, admin, target.user_id, { emoji_name: 'car', emoji_code: '1f697' }, OK, 'only the type missing');
  await setStatus(t, admin, target.user_id, { emoji_name: 'heart', reaction_type: 'unicode_emoji' }, OK, 'only the code missing');
  t.same(await statusOf(target.user_id), { emoji_name: 'heart', emoji_code: '2764', reaction_type: 'unicode_emoji' });
});

t.test('lookup priority: an active custom emoji shadows a Unicode name and the extra emoji', async (t) => {
  const server = await startServer();
  t.teardown(() => server.close());
  const target = await server.user('member');
  t.equal((await uploadEmoji(server, server.owner, 'car')).status, 200);
  t.equal((await uploadEmoji(server, server.owner, 'zulip')).status, 200);
  const emoji = (await server.request('GET', '/realm/emoji', { as: server.owner })).body.emoji as Record<string, { id: string; name: string }>;
  const idOf = (name: string) => Object.values(emoji).find((e) => e.name === name)!.id;
  const get = async () => (await server.request('GET', `/users/${target.user_id}/status`, { as: server.owner })).body.status;
  /** Sets emoji_name alone over HTTP, then in-process (each from a cleared emoji); both succeed and store `wanted`. */
  const setEmoji = async (emojiName: string, wanted: Record<string, unknown>, label: string) => {
    for (const via of ['HTTP', 'in-process'] as const) {
      server.chat.api.userStatus.update(server.owner.user_id, { userId: target.user_id, emojiName: '' });
      const outcome =
        via === 'HTTP'
          ? outcomeOf(await server.request('POST', `/users/${target.user_id}/status`, { as: server.owner, params: { emoji_name: emojiName } }))
          : await inProcess(() => server.chat.api.userStatus.update(server.owner.user_id, { userId: target.user_id, emojiName }));
      t.same(outcome, OK, `${label}: accepted ${via}`);
      t.same(await get(), wanted, `${label}: stored ${via}`);
    }
  };
  await setEmoji('car', { emoji_name: 'car', emoji_code: idOf('car'), reaction_type: 'realm_emoji' }, 'custom car shadows the Unicode car');
  await setEmoji('zulip', { emoji_name: 'zulip', emoji_code: idOf('zulip'), reaction_type: 'realm_emoji' }, 'custom zulip shadows the extra emoji');
  t.equal((await server.request('DELETE', '/realm/emoji/car', { as: server.owner })).status, 200);
  await setEmoji('car', { emoji_name: 'car', emoji_code: '1f697', reaction_type: 'unicode_emoji' }, 'a deactivated one no longer shadows');
  t.equal((await server.request('DELETE', '/realm/emoji/zulip', { as: server.owner })).status, 200);
  await setEmoji('zulip', { emoji_name: 'zulip', emoji_code: 'zulip', reaction_type: 'service_extra_emoji' }, 'nor does a deactivated zulip');
});

t.test("\"Emoji '<name>' does not exist\"", async (t) => {
  const target = await s.user('member');
  await setStatus(t, admin, target.user_id, { emoji_name: 'invalid' }, badRequest("Emoji 'invalid' does not exist"));
  await setStatus(t, admin, target.user_id, { emoji_name: 'invalid', emoji_code: '1f4bb' }, badRequest("Emoji 'invalid' does not exist"), 'with a code');
  await setStatus(t, admin, target.user_id, { emoji_name: 'skin-tone-2' }, badRequest("Emoji 'skin-tone-2' does not exist"), 'a skin-tone modifier');
});

t.test("'Invalid emoji name.'", async (t) => {
  const target = await s.user('member');
  const msg = badRequest('Invalid emoji name.');
  await setStatus(t, admin, target.user_id, { emoji_name: 'car', emoji_code: '1f4bb' }, msg, 'Unicode name of another code');
  await setStatus(t, admin, target.user_id, { emoji_name: 'car', emoji_code: '1f4bb', reaction_type: 'unicode_emoji' }, msg, 'with the type');
  await setStatus(t, admin, target.user_id, { emoji_name: 'car', emoji_code: 'zulip', reaction_type: 'service_extra_emoji' }, msg, 'extra emoji');
});

t.test("'Invalid emoji code.'", async (t) => {
  const target = await s.user('member');
  const msg = badRequest('Invalid emoji code.');
  await setStatus(t, admin, target.user_id, { emoji_name: 'car', emoji_code: 'zzzz', reaction_type: 'unicode_emoji' }, msg, 'not an emoji');
  await setStatus(t, admin, target.user_id, { emoji_name: 'heart', emoji_code: '2764-fe0f', reaction_type: 'unicode_emoji' }, msg, 'the FE0F form');
  await setStatus(t, admin, target.user_id, { emoji_name: 'car', emoji_code: '1F697', reaction_type: 'unicode_emoji' }, msg, 'uppercase hex');
  await setStatus(t, admin, target.user_id, { emoji_name: 'zulip', emoji_code: 'other', reaction_type: 'zulip_extra_emoji' }, msg, 'extra emoji');
  await setStatus(t, admin, target.user_id, { emoji_name: 'car', emoji_code: '', reaction_type: 'unicode_emoji' }, msg, 'an empty code');
});

t.test("'Invalid custom emoji.', 'Invalid custom emoji name.', 'This custom emoji has been deactivated.'", async (t) => {
  const target = await s.user('member');
  t.equal((await uploadEmoji(s, admin, 'party_parrot')).status, 200);
  t.equal((await uploadEmoji(s, admin, 'old_parrot')).status, 200);
  const emoji = (await s.request('GET', '/realm/emoji', { as: admin })).body.emoji as Record<string, { id: string; name: string }>;
  const idOf = (name: string) => Object.values(emoji).find((e) => e.name === name)!.id;
  t.equal((await s.request('DELETE', '/realm/emoji/old_parrot', { as: admin })).status, 200);
  const realm = (name: string, code: string) => ({ emoji_name: name, emoji_code: code, reaction_type: 'realm_emoji' });
  await setStatus(t, admin, target.user_id, realm('car', '1f4bb'), badRequest('Invalid custom emoji.'), 'a Unicode code');
  await setStatus(t, admin, target.user_id, realm('car', '999999'), badRequest('Invalid custom emoji.'), 'an unknown id');
  await setStatus(t, admin, target.user_id, realm('car', `0${idOf('party_parrot')}`), badRequest('Invalid custom emoji.'), 'a non-canonical id');
  await setStatus(t, admin, target.user_id, realm('car', idOf('party_parrot')), badRequest('Invalid custom emoji name.'), 'another name');
  await setStatus(t, admin, target.user_id, realm('old_parrot', idOf('old_parrot')), badRequest('This custom emoji has been deactivated.'));
  await setStatus(t, admin, target.user_id, realm('party_parrot', idOf('party_parrot')), OK, 'the right id and name');
  t.same(await statusOf(target.user_id), { emoji_name: 'party_parrot', emoji_code: idOf('party_parrot'), reaction_type: 'realm_emoji' });
});

t.test("'Invalid emoji type.'", async (t) => {
  const target = await s.user('member');
  await setStatus(t, admin, target.user_id, { emoji_name: 'car', reaction_type: 'emoji' }, badRequest('Invalid emoji type.'));
  await setStatus(t, admin, target.user_id, { emoji_name: 'car', emoji_code: '1f697', reaction_type: '' }, badRequest('Invalid emoji type.'), 'empty');
});

t.test('status_text="" clears the text, emoji_name="" clears the emoji; fields not sent stay', async (t) => {
  const target = await s.user('member');
  await setStatus(t, admin, target.user_id, { status_text: 'Lunch', emoji_name: 'car' }, OK);
  await setStatus(t, admin, target.user_id, { status_text: '' }, OK, 'clear the text');
  t.same(await statusOf(target.user_id), { emoji_name: 'car', emoji_code: '1f697', reaction_type: 'unicode_emoji' }, 'the emoji stays');
  await setStatus(t, admin, target.user_id, { status_text: 'Back' }, OK);
  await setStatus(t, admin, target.user_id, { emoji_name: '', emoji_code: 'bogus', reaction_type: 'bogus' }, OK, 'clear the emoji: code and type are ignored');
  t.same(await statusOf(target.user_id), { status_text: 'Back' }, 'the text stays');
  await setStatus(t, admin, target.user_id, { status_text: '   ' }, OK, 'whitespace only is empty after stripping');
  t.same(await statusOf(target.user_id), {}, 'a cleared status is {}');
});

t.test('the extra emoji type: service_extra_emoji, or Zulip\'s zulip_extra_emoji, reported as the request spelled it', async (t) => {
  const target = await s.user('member');
  await setStatus(t, admin, target.user_id, { emoji_name: 'zulip', emoji_code: 'zulip', reaction_type: 'zulip_extra_emoji' }, OK, 'Zulip spelling');
  t.same(await statusOf(target.user_id), { emoji_name: 'zulip', emoji_code: 'zulip', reaction_type: 'zulip_extra_emoji' });
  await setStatus(t, admin, target.user_id, { emoji_name: 'zulip', reaction_type: 'service_extra_emoji' }, OK, 'the other spelling');
  t.same(await statusOf(target.user_id), { emoji_name: 'zulip', emoji_code: 'zulip', reaction_type: 'service_extra_emoji' });
  await setStatus(t, admin, target.user_id, { emoji_name: 'zulip', emoji_code: 'zulip' }, OK, 'type looked up');
  t.same(await statusOf(target.user_id), { emoji_name: 'zulip', emoji_code: 'zulip', reaction_type: 'service_extra_emoji' });
  const state = (await s.request('POST', '/register', { as: admin, params: { event_types: ['user_status'] } })).body.user_status;
  t.equal(state[String(target.user_id)].reaction_type, 'service_extra_emoji', '/register reports the same');
});

t.test('unknown parameters are listed in ignored_parameters_unsupported', async (t) => {
  const target = await s.user('member');
  const reply = await s.request('POST', `/users/${target.user_id}/status`, { as: admin, params: { status_text: 'x', away: true, colour: 'red' } });
  t.equal(reply.status, 200);
  t.same(reply.body.ignored_parameters_unsupported, ['away', 'colour']);
});

t.test('POST /users/me/status: humans only', async (t) => {
  const bot = await s.user('admin', { bot: true });
  await setOwnStatus(t, bot, { status_text: 'x' }, badRequest('This endpoint does not accept bot requests.'));
  const member = await s.user('member');
  await setOwnStatus(t, member, { status_text: 'Reading', emoji_name: 'books' }, OK, 'any human');
  t.same(await statusOf(member.user_id), { status_text: 'Reading', emoji_name: 'books', emoji_code: '1f4da', reaction_type: 'unicode_emoji' });
});

t.test('POST /users/me/status: away sets presence_enabled to its negation and counts as a new value', async (t) => {
  const member = await s.user('member');
  await setOwnStatus(t, member, { away: true }, OK, 'away alone');
  t.same(await statusOf(member.user_id), { away: true });
  t.equal(s.db.prepare('SELECT presence_enabled FROM user WHERE id = ?').pluck().get(member.user_id), 0);
  await setOwnStatus(t, member, { away: false, status_text: 'Here' }, OK);
  t.same(await statusOf(member.user_id), { status_text: 'Here' });
  t.equal(s.db.prepare('SELECT presence_enabled FROM user WHERE id = ?').pluck().get(member.user_id), 1);
});

t.test('POST /users/me/status: the same text and emoji rules', async (t) => {
  const member = await s.user('member');
  await setOwnStatus(t, member, {}, badRequest('Client did not pass any new values.'));
  await setOwnStatus(t, member, { status_text: '😀'.repeat(61) }, badRequest('status_text is too long (limit: 60 characters)'));
  await setOwnStatus(t, member, { emoji_code: '1f697', status_text: 'x' }, badRequest('Client must pass emoji_name if they pass either emoji_code or reaction_type.'));
  await setOwnStatus(t, member, { emoji_name: 'invalid' }, badRequest("Emoji 'invalid' does not exist"));
  await setOwnStatus(t, member, { emoji_name: 'car', emoji_code: '1f4bb' }, badRequest('Invalid emoji name.'));
  await setOwnStatus(t, member, { emoji_name: 'car', reaction_type: 'other' }, badRequest('Invalid emoji type.'));
  const away = await s.request('POST', '/users/me/status', { as: member, params: { away: 'yes' } });
  t.same(outcomeOf(away), badRequest('away is not valid JSON'), 'away must be a JSON boolean');
  t.same(await inProcess(() => s.chat.api.userStatus.updateOwn(member.user_id, { away: 'yes' as never })), badRequest('away is not a boolean'));
  t.same(await statusOf(member.user_id), {}, 'nothing was stored');
});

t.test('GET /users/{user_id}/status: only what is set; {} without a status; any caller', async (t) => {
  const member = await s.user('member');
  const bot = await s.user('member', { bot: true });
  const guest = await s.user('guest');
  for (const caller of [admin, guest, bot]) {
    const reply = await s.request('GET', `/users/${member.user_id}/status`, { as: caller });
    t.same(reply.body, { result: 'success', msg: '', status: {} }, 'no status yet');
  }
  await s.request('POST', `/users/${member.user_id}/status`, { as: admin, params: { status_text: 'on vacation' } });
  t.same(s.chat.api.userStatus.get(guest.user_id, { userId: member.user_id }), { status: { status_text: 'on vacation' } });
});

t.test('GET /users/{user_id}/status: the target checks of access_user_by_id', async (t) => {
  const gone = await s.user('member');
  const bot = await s.user('member', { bot: true });
  s.chat.admin.deactivateUser(gone.user_id);
  const get = (userId: number, wanted: ReturnType<typeof badRequest>, label: string) =>
    expectBoth(t, wanted, () => s.request('GET', `/users/${userId}/status`, { as: admin }), () => s.chat.api.userStatus.get(admin.user_id, { userId }), label);
  await get(999999, badRequest('No such user'), 'unknown');
  await get(bot.user_id, badRequest('No such user'), 'bot');
  await get(gone.user_id, badRequest('User is deactivated'), 'deactivated');
});
