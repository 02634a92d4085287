// SQL for the bot_service table (outgoing webhook and embedded bots' services) and bot_owner_notice
// (when a bot's owner was last told about a channel the bot could not post to).
import type { Store } from './db.js';

export interface BotServiceRow {
  id: number;
  bot_id: number;
  name: string;
  base_url: string;
  token: string;
  interface: number;
}

export function insertBotService(s: Store, row: Omit<BotServiceRow, 'id'>): void {
  s.run('INSERT INTO bot_service (bot_id, name, base_url, token, interface) VALUES (?, ?, ?, ?, ?)', row.bot_id, row.name, row.base_url, row.token, row.interface);
}

export function selectBotServices(s: Store, botId: number): BotServiceRow[] {
  return s.all<BotServiceRow>('SELECT * FROM bot_service WHERE bot_id = ? ORDER BY id', botId);
}

/** Every service, by bot (realm_bots). */
export function selectAllBotServices(s: Store): Map<number, BotServiceRow[]> {
  const byBot = new Map<number, BotServiceRow[]>();
  for (const row of s.all<BotServiceRow>('SELECT * FROM bot_service ORDER BY id')) {
    const list = byBot.get(row.bot_id);
    if (list) list.push(row);
    else byBot.set(row.bot_id, [row]);
  }
  return byBot;
}

export function updateBotService(s: Store, id: number, baseUrl: string, iface: number): void {
  s.run('UPDATE bot_service SET base_url = ?, interface = ? WHERE id = ?', baseUrl, iface, id);
}

export function selectOwnerNoticeTime(s: Store, botId: number): number | undefined {
  return s.get<{ last_sent: number }>('SELECT last_sent FROM bot_owner_notice WHERE bot_id = ?', botId)?.last_sent;
}

export function upsertOwnerNoticeTime(s: Store, botId: number, time: number): void {
  s.run('INSERT INTO bot_owner_notice (bot_id, last_sent) VALUES (?, ?) ON CONFLICT (bot_id) DO UPDATE SET last_sent = excluded.last_sent', botId, time);
}

/** The active outgoing webhook and embedded bots among these users, by id. */
export function selectActiveServiceBots(s: Store, userIds: readonly number[]): { id: number; bot_type: number }[] {
  return s.all<{ id: number; bot_type: number }>(
    'SELECT id, bot_type FROM user WHERE is_active = 1 AND bot_type IN (3, 4) AND id IN (SELECT value FROM json_each(?)) ORDER BY id',
    JSON.stringify(userIds),
  );
}
