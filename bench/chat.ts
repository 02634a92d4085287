// A parley organization for an in-process bench: a fresh database (a WAL file in a temporary
// folder, or :memory:), its ChatServer and owner, and one close() that removes it all.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { createChatServer, type ChatOptions, type ChatServer } from '../lib/index.js';
import { silentLogger } from '../lib/logger.js';

/** The credentials a bench server prints for each account it creates. */
export interface Account {
  email: string;
  api_key: string;
  user_id: number;
}

export interface BenchChat {
  chat: ChatServer;
  db: Database.Database;
  owner: Awaited<ReturnType<ChatServer['admin']['initOrganization']>>;
  ownerId: number;
  close(): Promise<void>;
}

export async function openBenchChat(options: { file?: boolean; chat?: ChatOptions } = {}): Promise<BenchChat> {
  const dir = mkdtempSync(join(tmpdir(), 'parley-bench-'));
  const db = new Database(options.file === false ? ':memory:' : join(dir, 'chat.db'));
  const chat = createChatServer(db, { logger: silentLogger, ...options.chat });
  const owner = await chat.admin.initOrganization({ email: 'owner@example.com', fullName: 'Owner' });
  return {
    chat,
    db,
    owner,
    ownerId: owner.user_id,
    async close() {
      await chat.close();
      db.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * Statements that write message and user_message rows directly: 100,000 sends through the API
 * would take minutes of set-up.
 */
export function messageRowWriters(db: Database.Database) {
  return {
    message: db.prepare(
      `INSERT INTO message (sender_id, stream_id, topic, content, rendered_content, topic_links, date_sent, sending_client)
       VALUES (?, ?, ?, ?, ?, '[]', ?, 'bench')`,
    ),
    userMessage: db.prepare('INSERT INTO user_message (user_id, message_id, flags) VALUES (?, ?, ?)'),
  };
}
