// Custom emoji: POST /realm/emoji/{emoji_name} (multipart image, checked by content, re-encoded
// 64x64), GET /realm/emoji, DELETE /realm/emoji/{emoji_name}, the image at source_url, the
// realm_emoji event.
import t, { type Test } from 'tap';
import { z } from 'zod';
import { startServer, type TestUser } from './helpers.js';
import { ANIMATED, FRAMES, STILLS, describe, pngClaimingPixels, pngOfSize } from './emoji_images.js';
import {
  IMAGES,
  OK,
  badRequest,
  eventsSince,
  expectBoth,
  outcomeOf,
  register,
  uploadEmoji,
  uploaded,
  type FilePart,
  type Outcome,
} from './user_status_helpers.js';

const realmEmoji = z.strictObject({
  id: z.string().regex(/^\d+$/),
  name: z.string(),
  source_url: z.string().regex(/^\/user_avatars\/1\/emoji\/images\/[0-9a-f]{16}\.(png|gif|jpg|webp|avif)$/),
  still_url: z.null(),
  deactivated: z.boolean(),
  author_id: z.int().nullable(),
});
const realmEmojiEvent = z.strictObject({
  type: z.literal('realm_emoji'),
  id: z.int(),
  op: z.literal('update'),
  realm_emoji: z.record(z.string(), realmEmoji),
});

const s = await startServer();
t.teardown(() => s.close());
const admin = await s.user('admin');
const member = await s.user('member');

const png = (filename = 'emoji.png'): FilePart => ({ filename, data: IMAGES.png });

/**
 * POST /realm/emoji/{name} over HTTP, then in-process, both ending as `wanted`. A name is taken
 * once, so on success the in-process call uses `apiName` (default `${name}2`).
 */
async function upload(
  tt: Test,
  as: TestUser,
  name: string,
  wanted: Outcome,
  options: { files?: FilePart[]; apiName?: string; label?: string } = {},
): Promise<void> {
  const files = options.files ?? [png()];
  const apiName = options.apiName ?? (wanted.status === 200 ? `${name}2` : name);
  await expectBoth(
    tt,
    wanted,
    () => uploadEmoji(s, as, encodeURI(name), files),
    () => s.chat.api.realmEmoji.upload(as.user_id, { emojiName: apiName, files: uploaded(files) }),
    options.label ?? name,
  );
}

async function listEmoji(): Promise<Record<string, z.infer<typeof realmEmoji>>> {
  const reply = await s.request('GET', '/realm/emoji', { as: member });
  return reply.body.emoji;
}

async function emojiNamed(name: string, active = true) {
  return Object.values(await listEmoji()).find((e) => e.name === name && e.deactivated !== active)!;
}

t.test('a member uploads an emoji; GET /realm/emoji lists it keyed by id', async (t) => {
  await upload(t, member, 'green_tick', OK);
  const emoji = await listEmoji();
  for (const [key, value] of Object.entries(emoji)) {
    t.ok(realmEmoji.safeParse(value).success, `shape of ${value.name}`);
    t.equal(key, value.id, 'keyed by id');
  }
  const tick = await emojiNamed('green_tick');
  t.match(tick, { name: 'green_tick', still_url: null, deactivated: false, author_id: member.user_id });
  t.ok(await emojiNamed('green_tick2'), 'the in-process upload');
  t.same(s.chat.api.realmEmoji.list(admin.user_id), { emoji }, 'in-process list');
});

t.test('the image is served at source_url without credentials, re-encoded 64x64 in the format of its content', async (t) => {
  const cases: [string, Buffer, string, string][] = [
    ['img_png', STILLS.png, 'image/png', 'png'],
    ['img_gif', STILLS.gif, 'image/gif', 'gif'],
    ['img_jpeg', STILLS.jpeg, 'image/jpeg', 'jpeg'],
    ['img_progressive_jpeg', STILLS['progressive jpeg'], 'image/jpeg', 'jpeg'],
    ['img_webp', STILLS.webp, 'image/webp', 'webp'],
    ['img_avif', STILLS.avif, 'image/avif', 'heif'],
  ];
  for (const [name, data, type, format] of cases) {
    // The declared file name and type are not trusted: only the bytes count.
    const reply = await uploadEmoji(s, member, name, [{ filename: 'picture.txt', data, type: 'text/plain' }]);
    t.equal(reply.status, 200, name);
    const { source_url: url } = await emojiNamed(name);
    const image = await fetch(s.url + url);
    t.equal(image.status, 200);
    t.equal(image.headers.get('content-type'), type, `${name} is served as ${type}`);
    const served = Buffer.from(await image.arrayBuffer());
    t.same(await describe(served), { format, width: 64, height: 64, frames: 1 }, `${name}: a 120x60 still cropped to 64x64`);
  }
});

t.test('an animated GIF or WebP stays animated: every frame, fitted into 64x64', async (t) => {
  for (const [name, data, format] of [['anim_gif', ANIMATED.gif, 'gif'], ['anim_webp', ANIMATED.webp, 'webp']] as const) {
    t.same(await describe(data), { format, width: 120, height: 60, frames: FRAMES }, `${name}: uploaded animated`);
    t.equal((await uploadEmoji(s, member, name, [{ filename: `${name}.${format}`, data }])).status, 200, name);
    const served = Buffer.from(await (await fetch(s.url + (await emojiNamed(name)).source_url)).arrayBuffer());
    t.same(await describe(served), { format, width: 64, height: 64, frames: FRAMES }, `${name}: served animated`);
  }
});

t.test('a tiny image padded with megabytes: data after its end is refused; data inside it is dropped by the re-encoding', async (t) => {
  const padding = Buffer.alloc(Math.floor(0.9 * 1024 * 1024), 0x41);
  for (const [format, data] of Object.entries({ ...STILLS, ...ANIMATED, '1x1 png': IMAGES.png })) {
    await upload(t, member, 'padded', badRequest('The file has data after the end of the image.'), {
      files: [{ filename: 'padded.png', data: Buffer.concat([data, padding]) }],
      label: `${format} + 0.9 MiB`,
    });
  }
  const inside = pngOfSize(1024 * 1024);
  await upload(t, member, 'padded_inside', OK, { files: [{ filename: 'stuffed.png', data: inside }] });
  const served = Buffer.from(await (await fetch(s.url + (await emojiNamed('padded_inside')).source_url)).arrayBuffer());
  t.ok(served.length < 2048, `1 MiB uploaded, ${served.length} bytes kept and served`);
  t.same(await describe(served), { format: 'png', width: 64, height: 64, frames: 1 });
});

t.test("Zulip's image errors: one that cannot be decoded, one of over 90 million pixels", async (t) => {
  await upload(t, member, 'broken', badRequest('Could not decode image; did you upload an image file?'), { files: [{ filename: 'x.jpg', data: IMAGES.jpeg }] });
  const cut = STILLS.png.subarray(0, STILLS.png.length - 20);
  await upload(t, member, 'broken', badRequest('Could not decode image; did you upload an image file?'), { files: [{ filename: 'x.png', data: cut }], label: 'cut short' });
  await upload(t, member, 'huge', badRequest('Image size exceeds limit.'), { files: [{ filename: 'x.png', data: pngClaimingPixels() }] });
});

t.test('an unknown image path is a 404', async (t) => {
  const { source_url: url } = await emojiNamed('green_tick');
  for (const path of ['/user_avatars/1/emoji/images/0000000000000000.png', url.replace('/user_avatars/1/', '/user_avatars/2/')]) {
    const reply = await fetch(s.url + path);
    t.equal(reply.status, 404, path);
    t.same(await reply.json(), { result: 'error', msg: 'Not Found', code: 'NOT_FOUND' });
  }
});

t.test("'Invalid image format' for anything but PNG, GIF, JPEG, WebP and AVIF", async (t) => {
  const before = Object.keys(await listEmoji()).length;
  for (const [label, data] of [['TIFF', IMAGES.tiff], ['SVG', IMAGES.svg], ['text', Buffer.from('not an image')], ['empty', Buffer.alloc(0)]] as const) {
    await upload(t, member, 'bad_image', badRequest('Invalid image format'), { files: [{ filename: 'x.png', data }], label });
  }
  t.equal(Object.keys(await listEmoji()).length, before, 'nothing was added');
});

t.test("'Uploaded file is larger than the allowed limit of N MiB'", async (t) => {
  const server = await startServer({ limits: { emojiBytes: 0 } });
  t.teardown(() => server.close());
  const reply = await uploadEmoji(server, server.owner, 'big');
  t.same(outcomeOf(reply), badRequest('Uploaded file is larger than the allowed limit of 0 MiB'));
  const limited = await startServer({ limits: { emojiBytes: 512 * 1024 } });
  t.teardown(() => limited.close());
  const refused = await uploadEmoji(limited, limited.owner, 'big', [{ filename: 'big.png', data: pngOfSize(512 * 1024 + 1) }]);
  t.same(outcomeOf(refused), badRequest('Uploaded file is larger than the allowed limit of 0.5 MiB'));
  const fits = await uploadEmoji(limited, limited.owner, 'big', [{ filename: 'big.png', data: pngOfSize(512 * 1024) }]);
  t.equal(fits.status, 200, 'exactly the limit is accepted');
});

t.test("with the default limits, a 1 MiB + 1 image gets 'larger than the allowed limit of 1 MiB', not a 413", async (t) => {
  await upload(t, member, 'too_big', badRequest('Uploaded file is larger than the allowed limit of 1 MiB'), {
    files: [{ filename: 'big.png', data: pngOfSize(1024 * 1024 + 1) }],
  });
  await upload(t, member, 'just_fits', OK, { files: [{ filename: 'big.png', data: pngOfSize(1024 * 1024) }] });
});

t.test("Zulip's name rules", async (t) => {
  const lettersOnly = badRequest('Emoji names must contain only lowercase English letters, digits, spaces, dashes, and underscores.');
  await upload(t, member, 'my_EMoji', lettersOnly, { label: 'uppercase' });
  await upload(t, member, 'my_em*oji', lettersOnly, { label: 'a star' });
  await upload(t, member, 'my/emoji/with/slashes', lettersOnly, { label: 'slashes' });
  await upload(t, member, 'café', lettersOnly, { label: 'non-ASCII' });
  await upload(t, member, 'my_emoji_', badRequest('Emoji names must end with either a letter or digit.'));
  await upload(t, member, 'my-emoji-', badRequest('Emoji names must end with either a letter or digit.'));
  await upload(t, member, ' ', badRequest('Emoji name is missing'));
});

t.test('spaces become underscores, surrounding whitespace is stripped', async (t) => {
  await upload(t, member, ' thumbs up too ', OK, { apiName: 'thumbs up three' });
  t.ok(await emojiNamed('thumbs_up_too'));
  t.ok(await emojiNamed('thumbs_up_three'));
});

t.test("'A custom emoji with this name already exists.'", async (t) => {
  t.equal((await uploadEmoji(s, member, 'taken')).status, 200);
  await upload(t, admin, 'taken', badRequest('A custom emoji with this name already exists.'));
});

t.test("'You must upload exactly one file.'", async (t) => {
  await upload(t, member, 'no_file', badRequest('You must upload exactly one file.'), { files: [], label: 'none' });
  await upload(t, member, 'two_files', badRequest('You must upload exactly one file.'), { files: [png('a.png'), png('b.png')], label: 'two' });
});

t.test("'Only administrators can override default emoji.'", async (t) => {
  await upload(t, member, 'smile', badRequest('Only administrators can override default emoji.'));
  // Zulip's names count, aliases included (mine is Zulip's name for 26cf, thumbs_up an alias of +1).
  await upload(t, member, 'mine', badRequest('Only administrators can override default emoji.'));
  await upload(t, member, 'thumbs_up', badRequest('Only administrators can override default emoji.'));
  await upload(t, admin, 'laughing', OK, { apiName: 'heart' });
});

t.test("guests get 'Not allowed for guest users', bots 'This endpoint does not accept bot requests.'", async (t) => {
  const guest = await s.user('guest');
  const bot = await s.user('admin', { bot: true });
  await upload(t, guest, 'from_guest', badRequest('Not allowed for guest users'));
  await upload(t, bot, 'from_bot', badRequest('This endpoint does not accept bot requests.'));
});

/** DELETE /realm/emoji/{name} over HTTP or in-process. */
function remove(as: TestUser, name: string, via: 'http' | 'api') {
  if (via === 'http') return s.request('DELETE', `/realm/emoji/${encodeURI(name)}`, { as }).then(outcomeOf);
  return Promise.resolve()
    .then(() => s.chat.api.realmEmoji.deactivate(as.user_id, { emojiName: name }))
    .then(() => OK, (error) => ({ status: error.status, code: error.code, msg: error.message }));
}

t.test('DELETE deactivates: the emoji stays listed, its image stays served', async (t) => {
  for (const via of ['http', 'api'] as const) {
    t.equal((await uploadEmoji(s, member, `gone_${via}`)).status, 200);
    t.same(await remove(member, `gone_${via}`, via), OK, `the author deletes (${via})`);
    const gone = await emojiNamed(`gone_${via}`, false);
    t.equal(gone.deactivated, true);
    t.equal((await fetch(s.url + gone.source_url)).status, 200, 'old messages still show it');
  }
});

t.test('a deactivated name may be uploaded again, under a new id', async (t) => {
  t.equal((await uploadEmoji(s, member, 'again')).status, 200);
  const first = await emojiNamed('again');
  t.same(await remove(member, 'again', 'http'), OK);
  t.equal((await uploadEmoji(s, member, 'again')).status, 200);
  const second = await emojiNamed('again');
  t.not(second.id, first.id);
  t.not(second.source_url, first.source_url);
});

t.test("\"Emoji '<name>' does not exist\": HTTP 404, code BAD_REQUEST", async (t) => {
  t.equal((await uploadEmoji(s, member, 'once')).status, 200);
  t.same(await remove(admin, 'once', 'http'), OK);
  for (const via of ['http', 'api'] as const) {
    t.same(await remove(admin, 'never_uploaded', via), { status: 404, code: 'BAD_REQUEST', msg: "Emoji 'never_uploaded' does not exist" }, via);
    t.same(await remove(admin, 'once', via), { status: 404, code: 'BAD_REQUEST', msg: "Emoji 'once' does not exist" }, `already deactivated (${via})`);
  }
});

t.test("'Must be an organization administrator or emoji author'", async (t) => {
  const other = await s.user('member');
  const moderator = await s.user('moderator');
  t.equal((await uploadEmoji(s, member, 'my_own')).status, 200);
  for (const via of ['http', 'api'] as const) {
    t.same(await remove(other, 'my_own', via), badRequest('Must be an organization administrator or emoji author'), `another member (${via})`);
    t.same(await remove(moderator, 'my_own', via), badRequest('Must be an organization administrator or emoji author'), `a moderator (${via})`);
  }
  t.equal((await emojiNamed('my_own')).deactivated, false, 'still active');
  t.same(await remove(admin, 'my_own', 'api'), OK, 'an administrator deletes anyone\'s');
});

t.test('realm_emoji events carry the whole dict; applying them equals a fresh /register', async (t) => {
  const server = await startServer();
  t.teardown(() => server.close());
  const author = await server.user('member');
  const watcher = await server.user('guest');
  const before = await register(server, watcher, ['realm_emoji']);
  t.same(before.realm_emoji, {}, 'no custom emoji yet');
  t.equal((await uploadEmoji(server, author, 'first')).status, 200);
  await server.chat.api.realmEmoji.upload(author.user_id, { emojiName: 'second', files: uploaded() });
  t.equal((await server.request('DELETE', '/realm/emoji/first', { as: author })).status, 200);
  await uploadEmoji(server, author, 'second');
  const events = await eventsSince(server, watcher, before);
  t.equal(events.length, 3, 'one event per change, none for the refused upload');
  let state = before.realm_emoji;
  for (const event of events) {
    t.ok(realmEmojiEvent.safeParse(event).success, 'schema');
    state = event.realm_emoji;
  }
  const after = await register(server, watcher, ['realm_emoji']);
  t.same(state, after.realm_emoji);
  t.same(Object.values(after.realm_emoji).map((e: any) => [e.name, e.deactivated]), [['first', true], ['second', false]]);
});
