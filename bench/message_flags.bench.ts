// Message flag figures on a WAL file database holding 1,000,000 user_message rows (100,000
// messages x 10 users): POST /messages/flags on 10,000 messages in one request, in-process and
// over HTTP, next to a raw better-sqlite3 loop doing the same row updates in one transaction,
// measured in the same run, rounds interleaved (target: at most 2x the raw loop).
import { record } from './harness.js';
import { openBenchChat } from './chat.js';

const MESSAGES = 100_000;
const USERS = 10;
const CHANGED = 10_000;
const ROUNDS = 11;

const median = (values: readonly number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

function timeMs(fn: () => unknown): number {
  const start = process.hrtime.bigint();
  fn();
  return Number(process.hrtime.bigint() - start) / 1e6;
}

async function timeMsAsync(fn: () => Promise<unknown>): Promise<number> {
  const start = process.hrtime.bigint();
  await fn();
  return Number(process.hrtime.bigint() - start) / 1e6;
}

interface Case {
  name: string;
  op: 'add' | 'remove';
  flag: 'read' | 'starred';
  /** The user's flags on every row before each timed run (none starred). */
  initial: number;
  raw: string;
}

const CASES: Case[] = [
  { name: 'add read', op: 'add', flag: 'read', initial: 0, raw: 'UPDATE user_message SET flags = flags | 1 WHERE user_id = ? AND message_id = ?' },
  { name: 'remove read', op: 'remove', flag: 'read', initial: 1, raw: 'UPDATE user_message SET flags = flags & ~1 WHERE user_id = ? AND message_id = ?' },
  { name: 'add starred', op: 'add', flag: 'starred', initial: 1, raw: 'INSERT INTO starred_message (user_id, message_id) VALUES (?, ?)' },
];

export async function run(): Promise<void> {
  const { chat, db, owner, close } = await openBenchChat();
  const users = [owner];
  for (let i = 1; i < USERS; i++) users.push(await chat.admin.addUser({ email: `user${i}@example.com`, fullName: `User ${i}` }));
  const reader = users[1]!;
  chat.api.streams.subscribe(owner.user_id, { subscriptions: [{ name: 'busy' }], principals: users.map((u) => u.user_id) });
  const streamId = chat.api.streams.getId(owner.user_id, { stream: 'busy' }).stream_id;
  // Rows written directly: 100,000 sends through the API would take minutes of set-up.
  const message = db.prepare(
    "INSERT INTO message (sender_id, stream_id, topic, content, rendered_content, date_sent, sending_client) VALUES (?, ?, ?, 'hello', '<p>hello</p>', 0, 'bench')",
  );
  const userMessage = db.prepare('INSERT INTO user_message (user_id, message_id, flags) VALUES (?, ?, 0)');
  const ids: number[] = [];
  db.transaction(() => {
    for (let i = 0; i < MESSAGES; i++) {
      const id = Number(message.run(owner.user_id, streamId, `topic ${i % 20}`).lastInsertRowid);
      for (const u of users) userMessage.run(u.user_id, id);
      ids.push(id);
    }
  })();
  // Every tenth message: spread over the user's rows, as a client marking a long backlog would.
  const changed = ids.filter((_, i) => i % (MESSAGES / CHANGED) === 0);
  const resetFlags = db.prepare('UPDATE user_message SET flags = ? WHERE user_id = ?');
  const resetStars = db.prepare('DELETE FROM starred_message WHERE user_id = ?');
  // Every timed run starts from the same rows and an empty WAL, so no run pays another's checkpoint.
  const reset = { run: (flags: number, userId: number) => (resetFlags.run(flags, userId), resetStars.run(userId), db.pragma('wal_checkpoint(TRUNCATE)')) };
  const address = await chat.listen(0, '127.0.0.1');
  const auth = 'Basic ' + Buffer.from(`${reader.email}:${reader.api_key}`).toString('base64');

  for (const c of CASES) {
    const raw = db.prepare(c.raw);
    const rawLoop = db.transaction(() => {
      for (const id of changed) raw.run(reader.user_id, id);
    });
    const input = { messages: changed, op: c.op, flag: c.flag };
    const body = new URLSearchParams({ messages: JSON.stringify(changed), op: c.op, flag: c.flag }).toString();
    const http = async () => {
      const response = await fetch(`http://127.0.0.1:${address.port}/api/v1/messages/flags`, {
        method: 'POST',
        headers: { authorization: auth, 'content-type': 'application/x-www-form-urlencoded' },
        body,
      });
      if (response.status !== 200) throw new Error(`flags request failed: ${await response.text()}`);
      await response.arrayBuffer();
    };
    // The reads marking unread cannot skip: each message's channel (the unread invariant) and
    // conversation (the event's message_details), as a raw loop would do them.
    const conversation = db.prepare('SELECT stream_id, direct_group_id, topic FROM message WHERE id = ?').raw();
    const rawWithReads = db.transaction(() => {
      for (const id of changed) {
        conversation.get(id);
        raw.run(reader.user_id, id);
      }
    });
    const runs: [string, () => Promise<number>][] = [
      ['raw', async () => timeMs(rawLoop)],
      ['parley', async () => timeMs(() => chat.api.messageFlags.update(reader.user_id, input))],
      ['http', () => timeMsAsync(http)],
      ...(c.name === 'remove read' ? ([['rawWithReads', async () => timeMs(rawWithReads)]] as [string, () => Promise<number>][]) : []),
    ];
    const times = new Map<string, number[]>(runs.map(([name]) => [name, []]));
    for (let round = 0; round < ROUNDS + 1; round++) {
      // Rotated each round, so no measure always runs first or last.
      for (let k = 0; k < runs.length; k++) {
        const [name, measure] = runs[(round + k) % runs.length]!;
        reset.run(c.initial, reader.user_id);
        const ms = await measure();
        if (round > 0) times.get(name)!.push(ms);
      }
    }
    const rawTimes = times.get('raw')!;
    const perRound = median(times.get('parley')!.map((ms, i) => ms / rawTimes[i]!));
    console.log(`  (${c.name}: median of per-round ratios parley/raw ${(perRound * 100).toFixed(0)}%)`);
    const baseline = { name: `raw prepared ${c.flag === 'starred' ? 'INSERT' : 'UPDATE'} loop, one transaction`, value: median(rawTimes) };
    const label = `${c.name} on ${CHANGED.toLocaleString('en-US')} of 1M rows`;
    record({ group: 'message_flags', name: `${label} (in-process)`, value: median(times.get('parley')!), unit: 'ms', baseline, target: '<= 200% of baseline' });
    record({ group: 'message_flags', name: `${label} (HTTP, one request)`, value: median(times.get('http')!), unit: 'ms', baseline });
    if (times.has('rawWithReads')) {
      record({ group: 'message_flags', name: `${label}: raw loop with the conversation reads it needs`, value: median(times.get('rawWithReads')!), unit: 'ms', baseline });
    }
  }
  await close();
}
