// POST /register reads a user's unread and direct-message rows through their partial indexes
// (schema.sql: user_message_unread, user_message_private), not by walking every row the user has
// by the primary key: SQLite's planner, left to itself, preferred the key, and each /register
// then cost time in proportion to the user's whole history (about 0.35 ms per 10,000 messages
// read), for a few unread ones. Each statement /register runs is checked with EXPLAIN QUERY PLAN.
import t from 'tap';
import Database from 'better-sqlite3';
import { createChatServer } from '../lib/index.js';
import { silentLogger } from '../lib/logger.js';
import { injectRequest, withAuth } from './helpers.js';

t.test("POST /register lists a user's unread and direct messages through their partial indexes", async (t) => {
  const statements: string[] = [];
  const db = new Database(':memory:', { verbose: (sql) => statements.push(String(sql)) });
  const chat = createChatServer(db, { logger: silentLogger });
  t.teardown(async () => {
    await chat.close();
    db.close();
  });
  const owner = withAuth(await chat.admin.initOrganization({ email: 'owner@example.com', fullName: 'Owner' }));
  const member = withAuth(await chat.admin.addUser({ email: 'member@example.com', fullName: 'Member' }));
  for (let i = 0; i < 20; i++) chat.api.messages.send(member.user_id, { type: 'stream', to: 'general', topic: 'lunch', content: `soup ${i}` });
  chat.api.messages.send(member.user_id, { type: 'direct', to: [owner.user_id], content: 'hi' });

  statements.length = 0;
  const reply = await injectRequest(chat.handler, 'POST', '/register', { as: owner });
  t.equal(reply.status, 200);
  const body = reply.body as { unread_msgs: { count: number }; recent_private_conversations: unknown[] };
  t.equal(body.unread_msgs.count, 21, 'the unread messages are all there');
  t.equal(body.recent_private_conversations.length, 1, 'and the direct-message conversation');

  const partial = [
    { flags: /\(\s*(?:um\.)?flags & 1\) = 0/, index: 'user_message_unread' },
    { flags: /\(\s*(?:um\.)?flags & 2048\) <> 0/, index: 'user_message_private' },
  ];
  const checked = new Set<string>();
  for (const sql of new Set(statements)) {
    const uses = partial.filter((p) => /\bFROM user_message\b/.test(sql) && p.flags.test(sql));
    if (uses.length === 0) continue;
    // (The statements as run, their values written in: a plan needs no parameters bound.)
    const plan = (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all() as { detail: string }[]).map((row) => row.detail).join('; ');
    for (const p of uses) {
      t.match(plan, `USING INDEX ${p.index}`, `${p.index}: ${sql.replace(/\s+/g, ' ').slice(0, 90)}…`);
      checked.add(p.index);
    }
  }
  t.same([...checked].sort(), ['user_message_private', 'user_message_unread'], 'both kinds of statement ran');
});
