// What starring writes, at the page level: the starred flag is a row of starred_message, not a bit
// of user_message.flags (SQLite's UPDATE rewrites a row's entry in every partial index whose WHERE
// clause reads a column the statement assigns) nor a column of user_message. Starring an unread
// direct message must touch the starred_message page and the event pages, and no page of
// user_message or its indexes. The pages a transaction wrote
// are read from the WAL file (https://www.sqlite.org/fileformat2.html#walformat: a 32-byte
// header, then per frame a 24-byte header starting with the page number, then the page), emptied
// by a TRUNCATE checkpoint just before; dbstat names the table or index of each page.
import { readFileSync } from 'node:fs';
import t from 'tap';
import { startServer, type TestServer } from './helpers.js';
import { flagBits, ok, sendDirect } from './messaging_helpers.js';
import { FLAG } from '../lib/domain/flags.js';

const s: TestServer = await startServer();
t.teardown(() => s.close());

/** The table or index of each page the WAL holds, in frame order. */
function walPages(): string[] {
  const names = new Map(s.db.prepare('SELECT pageno, name FROM dbstat').raw().all() as [number, string][]);
  const wal = readFileSync(`${s.db.name}-wal`);
  const pageSize = wal.readUInt32BE(8);
  const pages: string[] = [];
  for (let at = 32; at + 24 + pageSize <= wal.length; at += 24 + pageSize) pages.push(names.get(wal.readUInt32BE(at)) ?? 'unknown');
  return pages;
}

/** The objects whose pages `write` appended to the WAL (one transaction on an emptied WAL). */
async function pagesWrittenBy(write: () => unknown): Promise<string[]> {
  s.db.pragma('wal_checkpoint(TRUNCATE)');
  await write();
  return walPages();
}

t.test('starring an unread direct message writes the starred_message row and the event, no page of user_message', async (t) => {
  // No automatic checkpoint empties the WAL between a write and the reading of its pages.
  s.db.pragma('wal_autocheckpoint = 0');
  const bob = await s.user();
  const id = await sendDirect(s, s.owner, [bob.user_id], 'a direct message bob has not read');
  t.equal(flagBits(s, bob.user_id, id), FLAG.is_private, 'unread, private, not starred');

  // Measured: 2 pages (starred_message, the event table's page); 3 while starred was a column of
  // user_message with a partial index (the row and that index), 6 while it was bit 1 of flags
  // (user_message_unread and user_message_private too) and the event table had a per-user index.
  // Each page is one WAL frame.
  const star = {
    HTTP: (op: string) => s.request('POST', '/messages/flags', { as: bob, params: { messages: [id], op, flag: 'starred' } }).then((reply) => ok(t, reply)),
    'in-process': (op: string) => s.chat.api.messageFlags.update(bob.user_id, { messages: [id], op, flag: 'starred' }),
  };
  for (const [how, write] of Object.entries(star)) {
    for (const op of ['add', 'remove']) {
      const pages = await pagesWrittenBy(() => write(op));
      const label = `${how}, ${op} starred`;
      t.same(pages.filter((name) => name !== 'event'), ['starred_message'], `${label}: the starred_message page, once, and nothing of user_message`);
      // One page of the event table; two or three when its row fills a page and it splits.
      const others = pages.filter((name) => name !== 'starred_message');
      t.ok(others.length > 0 && others.every((name) => name === 'event'), `${label}: otherwise only the event table (${others.join(', ')})`);
    }
  }
  t.equal(flagBits(s, bob.user_id, id), FLAG.is_private, 'starred and unstarred: as before');

  // For contrast: marking it read assigns flags, so its unread and private entries are rewritten.
  const read = await pagesWrittenBy(() => s.chat.api.messageFlags.update(bob.user_id, { messages: [id], op: 'add', flag: 'read' }));
  t.ok(read.includes('user_message_unread') && read.includes('user_message_private'), 'read: the flags indexes are written');
  t.notOk(read.includes('starred_message'), 'read: starred_message is not');
});
