import Database from 'better-sqlite3';
import { mkdtempSync } from 'node:fs';
import { join } from 'node:path';
const { createChatServer } = await import(join(process.env.ROOT ?? '/work/wt/write', 'lib/index.ts'));
const dir = mkdtempSync('/tmp/wdrv/rx-');
const db = new Database(join(dir, 'p.db'));
const chat = createChatServer(db, { logger: { info() {}, warn() {}, error() {} } });
const owner = await chat.admin.initOrganization({ email: 'b@example.com', fullName: 'Bench' });
const member = await chat.admin.addUser({ email: 'u@example.com', fullName: 'User one' });
const ids: number[] = [];
for (let i = 0; i < 2000; i++) ids.push(chat.api.messages.send(owner.user_id, { type: 'direct', to: [owner.user_id], content: 'x' }).id);
const EMOJI = ['smile', 'heart', 'octopus', 'tada', 'eyes', 'wave', 'rocket', 'star', 'fire', 'cat'];
let n = 0;
const react = () => { const k = n++; const e = EMOJI[Math.floor(k / 2000) % 10]; const id = ids[k % 2000]; if (Math.floor(k / 20000) % 2 === 0) chat.api.reactions.add(owner.user_id, { message_id: id, emoji_name: e }); else chat.api.reactions.remove(owner.user_id, { message_id: id, emoji_name: e }); };
let s = 0;
const status = () => chat.api.userStatus.update(owner.user_id, { user_id: member.user_id, status_text: 'In a meeting', emoji_name: 'car' });
let m = 0;
const star = () => { const k = m++; chat.api.messageFlags.update(owner.user_id, { messages: [ids[k % 2000]], op: Math.floor(k / 2000) % 2 ? 'remove' : 'add', flag: 'starred' }); };
for (const [name, f] of [['react', react], ['status', status], ['star', star]] as const) {
  for (let i = 0; i < 3000; i++) f();
  const c0 = process.cpuUsage();
  for (let i = 0; i < 20000; i++) f();
  const c = process.cpuUsage(c0);
  console.log(name, 'cpu µs/op', ((c.user + c.system) / 20000).toFixed(1), 'user', (c.user / 20000).toFixed(1));
}
