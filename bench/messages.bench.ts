// Messaging figures, in-process on a WAL file database: sending one message to a channel with
// 1,000 subscribers, and GET /messages of the newest 100 among 100,000, each next to raw
// better-sqlite3 doing the same row work in the same run (PERFORMANCE.md).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { createChatServer, type ChatServer } from '../lib/index.js';
import { silentLogger } from '../lib/context.js';
import { msPerCall, record } from './harness.js';

const SUBSCRIBERS = 1000;
const STORED_MESSAGES = 100_000;

async function setUp(): Promise<{ chat: ChatServer; db: Database.Database; dir: string; ownerId: number; userIds: number[] }> {
  const dir = mkdtempSync(join(tmpdir(), 'parley-bench-'));
  const db = new Database(join(dir, 'chat.db'));
  const chat = createChatServer(db, { logger: silentLogger });
  const owner = await chat.admin.initOrganization({ email: 'owner@example.com', fullName: 'Owner' });
  const userIds: number[] = [];
  for (let i = 1; i < SUBSCRIBERS; i++) {
    userIds.push((await chat.admin.addUser({ email: `user${i}@example.com`, fullName: `User ${i}` })).user_id);
  }
  chat.api.streams.subscribe(owner.user_id, { subscriptions: [{ name: 'everyone' }], principals: userIds });
  return { chat, db, dir, ownerId: owner.user_id, userIds: [owner.user_id, ...userIds] };
}

/** The same rows a send writes, written by hand: a message, then one user_message and one event row per recipient. */
function rawSend(db: Database.Database, senderId: number, streamId: number, recipients: readonly number[]): () => void {
  const message = db.prepare(
    `INSERT INTO message (sender_id, stream_id, topic, content, rendered_content, topic_links, date_sent, sending_client)
     VALUES (?, ?, 'bench', 'hello', '<p>hello</p>', '[]', 1, 'bench')`,
  );
  const userMessage = db.prepare('INSERT INTO user_message (user_id, message_id, flags) VALUES (?, ?, ?)');
  const event = db.prepare("INSERT INTO event (user_id, type, payload, created_at) VALUES (?, 'message', ?, 1)");
  const payload = JSON.stringify({ type: 'message', flags: [], message: { id: 0, content: '<p>hello</p>', subject: 'bench' } });
  return db.transaction(() => {
    const id = Number(message.run(senderId, streamId).lastInsertRowid);
    for (const userId of recipients) userMessage.run(userId, id, 0);
    for (const userId of recipients) event.run(userId, payload);
  });
}

async function send(): Promise<void> {
  const { chat, db, dir, ownerId, userIds } = await setUp();
  const streamId = chat.api.streams.getId(ownerId, { stream: 'everyone' }).stream_id;
  const raw = rawSend(db, ownerId, streamId, userIds);
  const rawMs = msPerCall(raw, 200);
  const parleyMs = msPerCall(
    () => chat.api.messages.send(ownerId, { type: 'stream', to: 'everyone', topic: 'bench', content: 'hello **everyone**' }),
    200,
  );
  record({
    group: 'messages',
    name: `send to a channel with ${SUBSCRIBERS} subscribers (in-process)`,
    value: parleyMs,
    unit: 'ms',
    baseline: { name: 'raw message + user_message + event rows', value: rawMs },
    target: '< 5 ms',
  });
  await chat.close();
  db.close();
  rmSync(dir, { recursive: true, force: true });
}

async function fetchNewest(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'parley-bench-'));
  const db = new Database(join(dir, 'chat.db'));
  const chat = createChatServer(db, { logger: silentLogger });
  const owner = await chat.admin.initOrganization({ email: 'owner@example.com', fullName: 'Owner' });
  const other = await chat.admin.addUser({ email: 'other@example.com', fullName: 'Other' });
  chat.api.streams.subscribe(owner.user_id, { subscriptions: [{ name: 'history' }], principals: [owner.user_id, other.user_id] });
  const streamId = chat.api.streams.getId(owner.user_id, { stream: 'history' }).stream_id;
  // Rows written directly: 100,000 sends through the API would take minutes of set-up.
  const message = db.prepare(
    `INSERT INTO message (sender_id, stream_id, topic, content, rendered_content, topic_links, date_sent, sending_client)
     VALUES (?, ?, ?, ?, ?, '[]', ?, 'bench')`,
  );
  const userMessage = db.prepare('INSERT INTO user_message (user_id, message_id, flags) VALUES (?, ?, ?)');
  db.transaction(() => {
    for (let i = 0; i < STORED_MESSAGES; i++) {
      const sender = i % 2 === 0 ? owner.user_id : other.user_id;
      const id = Number(message.run(sender, streamId, `topic ${i % 50}`, `message ${i}`, `<p>message ${i}</p>`, 1_700_000_000 + i).lastInsertRowid);
      userMessage.run(owner.user_id, id, i % 3 === 0 ? 1 : 0);
      userMessage.run(other.user_id, id, 0);
    }
  })();
  const rawQuery = db.prepare(
    `SELECT m.*, um.flags FROM user_message um JOIN message m ON m.id = um.message_id
     WHERE um.user_id = ? ORDER BY um.message_id DESC LIMIT 100`,
  );
  const rawMs = msPerCall(() => rawQuery.all(owner.user_id), 2000);
  const parleyMs = msPerCall(() => chat.api.messages.list(owner.user_id, { anchor: 'newest', numBefore: 100, numAfter: 0 }), 2000);
  record({
    group: 'messages',
    name: `GET /messages newest 100 of ${STORED_MESSAGES.toLocaleString('en-US')} (in-process)`,
    value: parleyMs,
    unit: 'ms',
    baseline: { name: 'raw join of the same 100 rows', value: rawMs },
    target: '< 5 ms',
  });
  await chat.close();
  db.close();
  rmSync(dir, { recursive: true, force: true });
}

export async function run(): Promise<void> {
  await send();
  await fetchNewest();
}
