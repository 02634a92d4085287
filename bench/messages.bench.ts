// Messaging figures, in-process: sending one message to a channel with 1,000 subscribers (on
// :memory: and on a WAL file), and GET /messages of the newest 100 among 100,000, each next to raw
// better-sqlite3 doing the same row work in the same run.
import Database from 'better-sqlite3';
import type { ChatServer } from '../lib/index.js';
import { interleaved, record } from './harness.js';
import { messageRowWriters, openBenchChat } from './chat.js';

const SUBSCRIBERS = 1000;
const STORED_MESSAGES = 100_000;

async function setUp(file: boolean): Promise<{ chat: ChatServer; db: Database.Database; close: () => Promise<void>; ownerId: number; userIds: number[] }> {
  const { chat, db, owner, close } = await openBenchChat({ file });
  const userIds: number[] = [];
  for (let i = 1; i < SUBSCRIBERS; i++) {
    userIds.push((await chat.admin.addUser({ email: `user${i}@example.com`, fullName: `User ${i}` })).user_id);
  }
  chat.api.streams.subscribe(owner.user_id, { subscriptions: [{ name: 'everyone' }], principals: userIds });
  return { chat, db, close, ownerId: owner.user_id, userIds: [owner.user_id, ...userIds] };
}

/**
 * The same rows a send writes, written by hand: a message, one user_message row per recipient and
 * one event row listing the recipients, the event payload as long as parley's.
 */
function rawSend(db: Database.Database, senderId: number, streamId: number, recipients: readonly number[], payload: string): () => void {
  const message = db.prepare(
    `INSERT INTO message (sender_id, stream_id, topic, content, rendered_content, topic_links, date_sent, sending_client)
     VALUES (?, ?, 'bench', 'hello', '<p>hello</p>', '[]', 1, 'bench')`,
  );
  const userMessage = db.prepare('INSERT INTO user_message (user_id, message_id, flags) VALUES (?, ?, ?)');
  const event = db.prepare("INSERT INTO event (user_id, recipients, type, payload, created_at) VALUES (NULL, ?, 'message', ?, 1)");
  return db.transaction(() => {
    const id = Number(message.run(senderId, streamId).lastInsertRowid);
    for (const userId of recipients) userMessage.run(userId, id, 0);
    event.run(`,${recipients.join(',')},`, payload);
  });
}

/** On :memory: the figure is the CPU cost; on a WAL file it includes writing ~1 MB of rows to the log. */
async function send(file: boolean): Promise<void> {
  const { chat, db, close, ownerId, userIds } = await setUp(file);
  const streamId = chat.api.streams.getId(ownerId, { stream: 'everyone' }).stream_id;
  const send = () => chat.api.messages.send(ownerId, { type: 'stream', to: 'everyone', topic: 'bench', content: 'hello **everyone**' });
  send();
  const payload = db.prepare("SELECT payload FROM event WHERE type = 'message' ORDER BY id DESC LIMIT 1").pluck().get() as string;
  const [rawMs, parleyMs] = interleaved(rawSend(db, ownerId, streamId, userIds, payload), send, 20, 7);
  record({
    group: 'messages',
    name: `send to a channel with ${SUBSCRIBERS} subscribers (in-process, ${file ? 'WAL file' : ':memory:'})`,
    value: parleyMs,
    unit: 'ms',
    baseline: { name: 'raw message + user_message rows + one event row', value: rawMs },
    target: '< 5 ms',
  });
  await close();
}

async function fetchNewest(): Promise<void> {
  const { chat, db, owner, close } = await openBenchChat();
  const other = await chat.admin.addUser({ email: 'other@example.com', fullName: 'Other' });
  chat.api.streams.subscribe(owner.user_id, { subscriptions: [{ name: 'history' }], principals: [owner.user_id, other.user_id] });
  const streamId = chat.api.streams.getId(owner.user_id, { stream: 'history' }).stream_id;
  const { message, userMessage } = messageRowWriters(db);
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
  const [rawMs, parleyMs] = interleaved(
    () => rawQuery.all(owner.user_id),
    () => chat.api.messages.list(owner.user_id, { anchor: 'newest', numBefore: 100, numAfter: 0 }),
    200,
    7,
  );
  record({
    group: 'messages',
    name: `GET /messages newest 100 of ${STORED_MESSAGES.toLocaleString('en-US')} (in-process)`,
    value: parleyMs,
    unit: 'ms',
    baseline: { name: 'raw join of the same 100 rows', value: rawMs },
    target: '< 5 ms',
  });
  await close();
}

export async function run(): Promise<void> {
  await send(false);
  await send(true);
  await fetchNewest();
}
