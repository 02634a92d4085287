// Uploaded files: POST /user_uploads (one spooled file, Zulip's errors), the file at
// /user_uploads/{realm_id}/{path} (its uploader and readers of a message linking it, safe
// headers), temporary URLs, claims by sending, editing and deleting messages, GET /attachments,
// DELETE /attachments/{id} and the attachment events (GET /attachments before + events == after).
import { readdirSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import t, { type Test } from 'tap';
import { z } from 'zod';
import { startServer, type TestUser } from './helpers.js';
import { IMAGES, OK, badRequest, eventsSince, expectBoth, outcomeOf, register, type FilePart, type Outcome } from './user_status_helpers.js';
import type { UploadedFile } from '../lib/http/body.js';

const MIB = 1024 * 1024;
let now = Date.UTC(2026, 0, 1);
const spoolDir = join((await import('node:os')).tmpdir(), `parley-spool-${process.pid}`);
mkdirSync(spoolDir, { recursive: true });
const s = await startServer({ clock: () => now, limits: { uploadBytes: 3 * MIB, spoolDir } });
t.teardown(() => s.close());
const alice = await s.user('member');
const bob = await s.user('member');
const guest = await s.user('guest');

const answerSchema = z.strictObject({
  result: z.literal('success'),
  msg: z.literal(''),
  uri: z.string().regex(/^\/user_uploads\/1\/[0-9a-f]{2}\/[A-Za-z0-9_-]{24}\/[^/]+$/),
  url: z.string(),
  filename: z.string(),
});
const attachmentSchema = z.strictObject({
  id: z.int(),
  name: z.string(),
  path_id: z.string(),
  size: z.int(),
  create_time: z.int(),
  messages: z.array(z.strictObject({ id: z.int(), date_sent: z.int() })),
});

async function uploadHttp(as: TestUser | null, files: FilePart[]) {
  const form = new FormData();
  files.forEach((file, i) => form.append(`f${i + 1}`, new Blob([file.data], { type: file.type ?? 'application/octet-stream' }), file.filename));
  const response = await fetch(`${s.url}/api/v1/user_uploads`, { method: 'POST', headers: as ? { authorization: as.auth } : {}, body: form });
  return { status: response.status, body: (await response.json()) as Record<string, any>, headers: response.headers };
}

const inMemory = (files: FilePart[]): UploadedFile[] => files.map((f, i) => ({ field: `f${i}`, filename: f.filename, mimetype: 'application/octet-stream', data: f.data }));

async function upload(as: TestUser, file: FilePart): Promise<{ url: string; filename: string }> {
  const reply = await uploadHttp(as, [file]);
  if (reply.status !== 200) throw new Error(JSON.stringify(reply.body));
  return reply.body as { url: string; filename: string };
}

const get = (path: string, as?: TestUser | null) => fetch(s.url + path, { headers: as ? { authorization: as.auth } : {} });

async function send(as: TestUser, to: string, content: string): Promise<number> {
  const reply = await s.request('POST', '/messages', { as, params: { type: 'stream', to, topic: 'files', content } });
  if (reply.status !== 200) throw new Error(JSON.stringify(reply.body));
  return reply.body.id;
}

s.chat.api.streams.subscribe(alice.user_id, { subscriptions: [{ name: 'shared' }], principals: [alice.user_id, bob.user_id] });
s.chat.api.streams.subscribe(alice.user_id, { subscriptions: [{ name: 'secret' }], inviteOnly: true });

t.test('POST /user_uploads answers uri, url and filename; the file is the bytes uploaded', async (t) => {
  const data = Buffer.alloc(2 * MIB + 12345, 7);
  const reply = await uploadHttp(alice, [{ filename: 'report 2026 (final).bin', data }]);
  t.equal(reply.status, 200);
  t.ok(answerSchema.safeParse(reply.body).success, JSON.stringify(reply.body));
  t.equal(reply.body.url, reply.body.uri, 'uri is the deprecated alias of url');
  t.equal(reply.body.filename, 'report 2026 (final).bin', 'the name as uploaded');
  t.match(reply.body.url, /\/report-2026-final\.bin$/, "Zulip's sanitize_name in the URL");
  const file = await get(reply.body.url, alice);
  t.equal(file.status, 200);
  t.same(Buffer.from(await file.arrayBuffer()), data, 'three chunks come back in order');
  t.same(readdirSync(spoolDir), [], 'the spooled file is removed once answered');
  const inProcess = await s.chat.api.uploads.upload(alice.user_id, { files: inMemory([{ filename: 'a.txt', data: Buffer.from('hi') }]) });
  t.match(inProcess, { filename: 'a.txt', url: /^\/user_uploads\/1\/.*\/a\.txt$/ });
});

t.test("Zulip's upload errors, over HTTP and in-process", async (t) => {
  const tooLarge = badRequest("File is larger than this server's configured maximum upload size (3 MiB).");
  const cases: [string, FilePart[], Outcome][] = [
    ['no file', [], badRequest('You must specify a file to upload')],
    ['two files', [{ filename: 'a', data: Buffer.from('a') }, { filename: 'b', data: Buffer.from('b') }], badRequest('You may only upload one file at a time')],
    ['too large', [{ filename: 'big', data: Buffer.alloc(3 * MIB + 1) }], tooLarge],
    ['just fits', [{ filename: 'fits', data: Buffer.alloc(3 * MIB) }], OK],
  ];
  for (const [label, files, wanted] of cases) {
    await expectBoth(t, wanted, () => uploadHttp(alice, files), () => s.chat.api.uploads.upload(alice.user_id, { files: inMemory(files) }), label);
  }
  const anonymous = await uploadHttp(null, [{ filename: 'a', data: Buffer.from('a') }]);
  t.equal(anonymous.status, 401);
  t.same(readdirSync(spoolDir), [], 'refused uploads leave no spooled file');
});

t.test('downloads: safe headers, inline only for types browsers merely display, any other type as application/octet-stream', async (t) => {
  const cases: [FilePart, string, string][] = [
    [{ filename: 'pic.txt', data: IMAGES.png }, 'image/png', 'inline; filename="pic.txt"'],
    [{ filename: 'page.html', data: Buffer.from('<script>alert(1)</script>') }, 'application/octet-stream', 'attachment; filename="page.html"'],
    [{ filename: 'd.svg', data: IMAGES.svg }, 'application/octet-stream', 'attachment; filename="d.svg"'],
    [{ filename: 'app.js', data: Buffer.from('alert(document.cookie)') }, 'application/octet-stream', 'attachment; filename="app.js"'],
    [{ filename: 'notes', data: Buffer.from('plain') }, 'application/octet-stream', 'attachment; filename="notes"'],
    [{ filename: 'résumé.pdf', data: Buffer.from('%PDF-1.4\n%\xe2\xe3\n') }, 'application/pdf', "inline; filename*=utf-8''r%C3%A9sum%C3%A9.pdf"],
  ];
  for (const [file, type, disposition] of cases) {
    const { url } = await upload(alice, file);
    const reply = await get(url, alice);
    t.equal(reply.status, 200, file.filename);
    t.equal(reply.headers.get('content-type'), type, `${file.filename}: ${type}`);
    t.equal(reply.headers.get('content-disposition'), disposition);
    t.equal(reply.headers.get('x-content-type-options'), 'nosniff');
    t.equal(reply.headers.get('content-security-policy'), "default-src 'none'; sandbox");
    t.equal(reply.headers.get('content-length'), String(file.data.length));
    t.same(Buffer.from(await reply.arrayBuffer()), file.data);
  }
});

t.test('a script at its credential-free temporary URL is application/octet-stream, a download, never a script', async (t) => {
  for (const [filename, data] of [['app.js', 'alert(document.cookie)'], ['module.mjs', 'export {}'], ['page.html', '<script>alert(1)</script>']] as const) {
    const { url } = await upload(alice, { filename, data: Buffer.from(data) });
    const temporary = (await s.request('GET', url, { as: alice })).body.url as string;
    const reply = await get(temporary, null);
    t.equal(reply.status, 200, filename);
    t.equal(reply.headers.get('content-type'), 'application/octet-stream', `${filename}: application/octet-stream`);
    t.equal(reply.headers.get('content-disposition'), `attachment; filename="${filename}"`);
    t.equal(reply.headers.get('x-content-type-options'), 'nosniff');
    t.equal(await reply.text(), data, 'the bytes as uploaded');
  }
});

t.test('who may download: the uploader, then readers of a message linking the file', async (t) => {
  const { url } = await upload(alice, { filename: 'plan.txt', data: Buffer.from('the plan') });
  const [realmId, ...rest] = url.slice('/user_uploads/'.length).split('/');
  const path = rest.join('/');
  const forbidden = { status: 403, code: 'BAD_REQUEST', msg: 'You are not authorized to view this file.' };
  const status = async (as: TestUser | null) => {
    const reply = await get(url, as);
    return reply.status === 200 ? { status: 200 } : { status: reply.status, ...((await reply.json()) as object) };
  };
  t.match(await status(bob), forbidden, 'not yet shared');
  t.match(await status(null), { status: 401, code: 'UNAUTHORIZED' }, 'credentials are required');
  t.throws(() => s.chat.api.uploads.download(bob.user_id, { realmId: realmId!, path }), { status: 403, code: 'BAD_REQUEST', message: forbidden.msg });

  await send(alice, 'secret', `[plan](${url})`);
  t.match(await status(bob), forbidden, 'a private channel bob is not in');
  await send(alice, 'shared', `see [plan.txt](${url})`);
  t.same(await status(bob), { status: 200 }, 'a public channel message links it');
  t.same(await status(guest), { ...forbidden, status: 403, result: 'error' }, 'guests read no public channel they are not in');
  const carol = await s.user('member');
  t.same(await status(carol), { status: 200 }, 'public history: members who joined later too');

  // Bob cannot make a file of Alice's his by linking it (Zulip's claim checks the sender's access).
  const hidden = await upload(alice, { filename: 'hidden.txt', data: Buffer.from('x') });
  await send(bob, 'shared', `[mine](${hidden.url})`);
  t.equal((await get(hidden.url, carol)).status, 403, 'a link by someone who may not download it claims nothing');

  for (const [p, label] of [['/user_uploads/1/00/nothing/here.txt', 'unknown path'], [url.replace('/user_uploads/1/', '/user_uploads/2/'), 'other realm']] as const) {
    const reply = await get(p, alice);
    t.same([reply.status, await reply.json()], [404, { result: 'error', msg: 'File not found.', code: 'NOT_FOUND' }], label);
  }
});

t.test('temporary URLs work without credentials for 60 seconds', async (t) => {
  const { url } = await upload(alice, { filename: 'temp.txt', data: Buffer.from('temporary') });
  const reply = await s.request('GET', url, { as: alice });
  t.equal(reply.status, 200);
  t.match(reply.body.url, /^\/user_uploads\/temporary\/[^/]+\/temp\.txt$/);
  const inProcess = s.chat.api.uploads.temporaryUrl(alice.user_id, { realmIdStr: '1', filename: url.split('/').slice(3).join('/') });
  t.match(inProcess.url, /^\/user_uploads\/temporary\//);
  t.equal((await s.request('GET', url, { as: bob })).status, 403, 'the same rule as the file');
  const fetched = await get(reply.body.url, null);
  t.equal(fetched.status, 200);
  t.equal(await fetched.text(), 'temporary');
  const wrongName = await get(reply.body.url.replace(/temp\.txt$/, 'other.txt'), null);
  t.same([wrongName.status, await wrongName.json()], [400, { result: 'error', msg: 'Invalid filename', code: 'BAD_REQUEST' }]);
  const token = reply.body.url.split('/')[3] as string;
  const tampered = reply.body.url.replace(token, token.replace(/.$/, (c: string) => (c === 'A' ? 'B' : 'A')));
  // The signature's last base64url character has two spare bits: its twin decodes to the same bytes.
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
  const mac = token.split('.')[1]!;
  const twinMac = mac.slice(0, -1) + alphabet[alphabet.indexOf(mac.at(-1)!) ^ 1];
  t.same(Buffer.from(twinMac, 'base64url'), Buffer.from(mac, 'base64url'), 'the twin spelling decodes to the same signature');
  const twin = reply.body.url.replace(token, `${token.split('.')[0]}.${twinMac}`);
  for (const [bad, label] of [[tampered, 'tampered'], [twin, 'another spelling of the signature'], ['/user_uploads/temporary/nonsense/temp.txt', 'malformed']]) {
    const r = await get(bad, null);
    t.same([r.status, await r.json()], [400, { result: 'error', msg: 'Invalid token', code: 'BAD_REQUEST' }], label);
  }
  now += 61_000;
  const expired = await get(reply.body.url, null);
  t.same([expired.status, await expired.json()], [400, { result: 'error', msg: 'Invalid token', code: 'BAD_REQUEST' }], 'expired after 60 s');
});

/** Zulip's web app: attachment events applied to GET /attachments. */
function apply(list: z.infer<typeof attachmentSchema>[], events: Record<string, any>[]) {
  let result = [...list];
  let used: number | undefined;
  for (const event of events.filter((e) => e.type === 'attachment')) {
    used = event.upload_space_used;
    if (event.op === 'add') result.push(event.attachment);
    else if (event.op === 'update') result = result.map((a) => (a.id === event.attachment.id ? event.attachment : a));
    else result = result.filter((a) => a.id !== event.attachment.id);
  }
  return { attachments: result.sort((a, b) => a.id - b.id), used };
}

t.test('GET /attachments, claims by send, edit and delete, and the attachment events', async (t) => {
  const dana = await s.user('member');
  const before = await s.request('GET', '/attachments', { as: dana });
  t.same(before.body.attachments, []);
  const queue = await register(s, dana, ['attachment']);
  const first = await upload(dana, { filename: 'one.txt', data: Buffer.from('1') });
  const second = await upload(dana, { filename: 'two.txt', data: Buffer.from('22') });
  s.chat.api.streams.subscribe(dana.user_id, { subscriptions: [{ name: 'shared' }] });
  const messageId = await send(dana, 'shared', `[one](${first.url}) and [two](${second.url})`);
  const narrow = await s.request('GET', '/messages', { as: dana, params: { anchor: 'newest', num_before: 5, num_after: 0, narrow: [{ operator: 'has', operand: 'attachment' }] } });
  t.ok(narrow.body.messages.some((m: { id: number }) => m.id === messageId), 'has:attachment finds it');
  let listed = await s.request('GET', '/attachments', { as: dana });
  t.equal(listed.status, 200);
  t.equal(listed.body.attachments.length, 2);
  for (const a of listed.body.attachments) t.ok(attachmentSchema.safeParse(a).success, 'Zulip\'s attachment shape');
  t.same(listed.body.attachments.map((a: any) => a.messages), [[{ id: messageId, date_sent: Math.floor(now / 1000) * 1000 }], [{ id: messageId, date_sent: Math.floor(now / 1000) * 1000 }]]);
  t.match(listed.body.attachments[0], { name: 'one.txt', size: 1, create_time: now, path_id: first.url.slice('/user_uploads/'.length) });
  t.type(listed.body.upload_space_used, 'number');
  t.same(s.chat.api.uploads.attachments(dana.user_id), { attachments: listed.body.attachments, upload_space_used: listed.body.upload_space_used }, 'in-process');

  // Editing drops the link to two; deleting the message drops one's.
  t.equal((await s.request('PATCH', `/messages/${messageId}`, { as: dana, params: { content: `only [one](${first.url})` } })).status, 200);
  listed = await s.request('GET', '/attachments', { as: dana });
  t.same(listed.body.attachments.map((a: any) => a.messages.length), [1, 0], 'an edit lets go of the file it no longer links');
  t.equal((await s.request('DELETE', `/messages/${messageId}`, { as: s.owner })).status, 200);
  listed = await s.request('GET', '/attachments', { as: dana });
  t.same(listed.body.attachments.map((a: any) => a.messages.length), [0, 0], 'deleting the message lets go of its files');

  const id = listed.body.attachments[1].id as number;
  const invalid = badRequest('Invalid attachment');
  await expectBoth(t, invalid, () => s.request('DELETE', `/attachments/${id}`, { as: alice }), () => s.chat.api.uploads.removeAttachment(alice.user_id, { attachmentId: id }), "someone else's");
  await expectBoth(t, invalid, () => s.request('DELETE', '/attachments/999999', { as: dana }), () => s.chat.api.uploads.removeAttachment(dana.user_id, { attachmentId: 999999 }), 'unknown');
  t.same(outcomeOf(await s.request('DELETE', `/attachments/${id}`, { as: dana })), OK);
  t.same(await inProcessOutcome(() => s.chat.api.uploads.removeAttachment(dana.user_id, { attachmentId: id })), invalid, 'gone');
  t.equal((await get(second.url, dana)).status, 404, 'the file is gone');

  const events = await eventsSince(s, dana, queue);
  t.same(events.filter((e) => e.type === 'attachment').map((e) => e.op), ['add', 'add', 'update', 'update', 'update', 'update', 'remove'], 'send claims two, the edit lets go of one, the deletion of the other');
  const after = await s.request('GET', '/attachments', { as: dana });
  const applied = apply(before.body.attachments, events);
  t.same(applied.attachments, after.body.attachments, 'GET /attachments before + events == GET /attachments after');
  t.equal(applied.used, after.body.upload_space_used);
});

async function inProcessOutcome(call: () => unknown): Promise<Outcome> {
  try {
    await call();
    return OK;
  } catch (error: any) {
    return { status: error.status, code: error.code, msg: error.message };
  }
}

t.test('/register tells the upload limit in MiB', async (t: Test) => {
  const state = await s.request('POST', '/register', { as: alice, params: { fetch_event_types: ['realm'] } });
  t.equal(state.body.max_file_upload_size_mib, 3);
});
