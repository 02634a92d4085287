// Search figures, in-process: GET /messages of the newest 100 matches among 100,000 messages in 10
// channels (a word; a quoted phrase; a word within one channel's history), each next to the raw
// FTS5 query returning the same rows, measured in alternating rounds of the same run.
import { interleaved, record } from './harness.js';
import { messageRowWriters, openBenchChat } from './chat.js';

const STORED_MESSAGES = 100_000;
const CHANNELS = 10;
const WORDS = ['alpha', 'bravo', 'charlie', 'delta', 'echo', 'foxtrot', 'golf', 'hotel', 'india', 'juliet', 'kilo', 'lima', 'mike'];

export async function run(): Promise<void> {
  const { chat, db, owner, close } = await openBenchChat();
  const other = await chat.admin.addUser({ email: 'other@example.com', fullName: 'Other' });
  const streamIds: number[] = [];
  for (let c = 0; c < CHANNELS; c++) {
    chat.api.streams.subscribe(owner.user_id, { subscriptions: [{ name: `channel ${c}` }], principals: [owner.user_id, other.user_id] });
    streamIds.push(chat.api.streams.getId(owner.user_id, { stream: `channel ${c}` }).stream_id);
  }
  // Rows written directly (the index's triggers fill message_fts).
  const { message, userMessage } = messageRowWriters(db);
  db.transaction(() => {
    for (let i = 0; i < STORED_MESSAGES; i++) {
      const words = [0, 3, 7].map((k) => WORDS[(i * (k + 1) + k) % WORDS.length]!).join(' ');
      const content = `message ${i} about ${words} and more text to read`;
      const id = Number(message.run(i % 2 ? other.user_id : owner.user_id, streamIds[i % CHANNELS], `topic ${i % 50}`, content, `<p>${content}</p>`, 1_700_000_000 + i).lastInsertRowid);
      userMessage.run(owner.user_id, id, i % 3 === 0 ? 1 : 0);
      userMessage.run(other.user_id, id, 0);
    }
  })();

  const ownRows = db.prepare(
    `SELECT m.*, um.flags FROM message_fts f JOIN user_message um ON um.user_id = ? AND um.message_id = f.rowid JOIN message m ON m.id = f.rowid
     WHERE message_fts MATCH ? ORDER BY f.rowid DESC LIMIT 100`,
  );
  const channelRows = db.prepare(
    `SELECT m.*, um.flags FROM message_fts f JOIN message m ON m.id = f.rowid LEFT JOIN user_message um ON um.message_id = f.rowid AND um.user_id = ?
     WHERE message_fts MATCH ? AND m.stream_id = ? ORDER BY f.rowid DESC LIMIT 100`,
  );
  const cases = [
    { name: 'a word', narrow: [{ operator: 'search', operand: 'delta' }], raw: () => ownRows.all(owner.user_id, '"delta"*') },
    { name: 'a quoted phrase', narrow: [{ operator: 'search', operand: '"more text"' }], raw: () => ownRows.all(owner.user_id, '"more text"') },
    {
      name: 'a word within one channel',
      narrow: [
        { operator: 'channel', operand: 'channel 3' },
        { operator: 'search', operand: 'delta' },
      ],
      raw: () => channelRows.all(owner.user_id, '"delta"*', streamIds[3]),
    },
  ];
  for (const c of cases) {
    const parley = () => chat.api.messages.list(owner.user_id, { anchor: 'newest', numBefore: 100, numAfter: 0, narrow: c.narrow });
    const found = parley().messages.map((m) => (m as { id: number }).id);
    const rawIds = (c.raw() as { id: number }[]).map((row) => row.id).reverse();
    if (found.length !== 100 || found.join() !== rawIds.join()) throw new Error(`search bench: ${c.name} does not return the raw query's rows`);
    const [rawMs, parleyMs] = interleaved(c.raw, parley, 100, 7);
    record({
      group: 'search',
      name: `GET /messages newest 100 matches of ${STORED_MESSAGES.toLocaleString('en-US')}, ${c.name} (in-process)`,
      value: parleyMs,
      unit: 'ms',
      baseline: { name: 'raw FTS5 query of the same 100 rows', value: rawMs },
      target: '<= 150% of baseline',
    });
  }
  await close();
}
