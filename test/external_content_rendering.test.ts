// Rendering of images from other hosts: in messages and channel descriptions they point at the
// image proxy (signed /external_content URLs, Zulip's camo scheme), or are links when the proxy
// is off; never an <img> that makes readers' clients fetch from another host.
import t, { type Test } from 'tap';
import { startServer, type TestServer } from './helpers.js';
import { camoPath } from './image_host.js';

const KEY = 'image-proxy-test-key-0123456789';
const CAT = 'https://images.example/cat.png';

async function server(t: Test, options: Parameters<typeof startServer>[0]): Promise<TestServer> {
  const s = await startServer(options);
  t.teardown(() => s.close());
  s.chat.api.streams.subscribe(s.owner.user_id, { subscriptions: [{ name: 'general' }] });
  return s;
}

/** The rendered content of a message sent over HTTP and of one sent in-process. */
async function rendered(s: TestServer, content: string): Promise<string[]> {
  const sent = await s.request('POST', '/messages', { as: s.owner, params: { type: 'stream', to: 'general', topic: 'pictures', content } });
  const viaApi = s.chat.api.messages.send(s.owner.user_id, { type: 'stream', to: 'general', topic: 'pictures', content });
  const html = [];
  for (const id of [sent.body.id as number, viaApi.id]) {
    html.push((await s.request('GET', `/messages/${id}`, { as: s.owner })).body.message.content as string);
  }
  return html;
}

t.test('an external image in a message points at the image proxy, signed with the key', async (t) => {
  const s = await server(t, { imageProxy: { key: KEY } });
  t.same(await rendered(s, `![a cat](${CAT} "Cat")`), Array(2).fill(`<p><img src="${camoPath(KEY, CAT)}" alt="a cat" title="Cat"></p>`));
  const preview = await s.request('POST', '/messages/render', { as: s.owner, params: { content: `![](${CAT})` } });
  t.equal(preview.body.rendered, `<p><img src="${camoPath(KEY, CAT)}" alt=""></p>`);
});

t.test('the signed URL is the normalized URL', async (t) => {
  const s = await server(t, { imageProxy: { key: KEY } });
  t.same(await rendered(s, '![x](HTTPS://Images.Example/a%20b.png)'), Array(2).fill(`<p><img src="${camoPath(KEY, 'https://images.example/a%20b.png')}" alt="x"></p>`));
});

t.test('an external image in a channel description points at the image proxy', async (t) => {
  const s = await server(t, { imageProxy: { key: KEY } });
  const description = `Our ![logo](${CAT})`;
  s.chat.api.streams.subscribe(s.owner.user_id, { subscriptions: [{ name: 'in-process', description }] });
  await s.request('POST', '/users/me/subscriptions', { as: s.owner, params: { subscriptions: [{ name: 'over-http', description }] } });
  const streams = (await s.request('GET', '/streams', { as: s.owner })).body.streams as { name: string; rendered_description: string }[];
  for (const name of ['in-process', 'over-http']) {
    t.equal(streams.find((c) => c.name === name)?.rendered_description, `<p>Our <img src="${camoPath(KEY, CAT)}" alt="logo"></p>`, name);
  }
});

t.test('under a mounted organization URL the proxy path has its prefix', async (t) => {
  const s = await server(t, { imageProxy: { key: KEY }, realm: { url: 'https://chat.example/team' } });
  t.same(await rendered(s, `![c](${CAT})`), Array(2).fill(`<p><img src="/team${camoPath(KEY, CAT)}" alt="c"></p>`));
});

t.test('with the proxy off, external images are links', async (t) => {
  const s = await server(t, { imageProxy: false });
  t.same(await rendered(s, `![a cat](${CAT} "Cat")`), Array(2).fill(`<p><a href="${CAT}" title="Cat">a cat</a></p>`));
  t.same(await rendered(s, `![](${CAT})`), Array(2).fill(`<p><a href="${CAT}">${CAT}</a></p>`));
  s.chat.api.streams.subscribe(s.owner.user_id, { subscriptions: [{ name: 'pics', description: `![logo](${CAT})` }] });
  const streams = (await s.request('GET', '/streams', { as: s.owner })).body.streams as { name: string; rendered_description: string }[];
  t.equal(streams.find((c) => c.name === 'pics')?.rendered_description, `<p><a href="${CAT}">logo</a></p>`);
  t.equal(s.db.prepare('SELECT count(*) FROM image_proxy_key').pluck().get(), 0, 'no key is made');
});

t.test('images on this server stay; other hosts and schemes become links, proxy or not', async (t) => {
  const s = await server(t, { imageProxy: { key: KEY } });
  t.same(await rendered(s, '![e](/user_uploads/1/e.png)'), Array(2).fill('<p><img src="/user_uploads/1/e.png" alt="e"></p>'));
  t.same(await rendered(s, '![e](//images.example/e.png)'), Array(2).fill('<p><a href="//images.example/e.png">e</a></p>'));
  t.same(await rendered(s, '![e](data:image/png;base64,AAAA)'), Array(2).fill('<p><a href="data:image/png;base64,AAAA">e</a></p>'));
  t.same(await rendered(s, '![e](http:images.example/e.png)'), Array(2).fill(`<p><img src="${camoPath(KEY, 'http://images.example/e.png')}" alt="e"></p>`));
  const long = `https://images.example/${'a'.repeat(1000)}.png`;
  t.same(await rendered(s, `![e](${long})`), Array(2).fill(`<p><a href="${long}">e</a></p>`), 'too long to sign');
});

t.test('the key is made once with the injected random source and kept in the database', async (t) => {
  const made: Buffer[] = [];
  let counter = 0;
  const random = (size: number) => {
    counter += 1;
    const bytes = Buffer.alloc(size, counter);
    made.push(bytes);
    return bytes;
  };
  const s = await server(t, { random });
  const stored = s.db.prepare('SELECT key FROM image_proxy_key').pluck().get() as Buffer;
  t.same(stored, made[0]);
  t.same(await rendered(s, `![c](${CAT})`), Array(2).fill(`<p><img src="${camoPath(stored, CAT)}" alt="c"></p>`));
  const { createChatServer } = await import('../lib/index.js');
  createChatServer(s.db, { random: () => Buffer.alloc(32, 0xee) });
  t.same(s.db.prepare('SELECT key FROM image_proxy_key').pluck().get(), stored, 'a restart keeps it');
});

t.test('a key option shorter than 16 bytes is refused at start', async (t) => {
  const { createChatServer } = await import('../lib/index.js');
  const Database = (await import('better-sqlite3')).default;
  t.throws(() => createChatServer(new Database(':memory:'), { imageProxy: { key: 'short' } }), { message: 'imageProxy.key must be at least 16 bytes' });
});
