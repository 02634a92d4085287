// npm run bench [-- name ...]: runs every benchmark module (or the named ones) in one process and
// prints each figure next to the baseline measured in the same run. Exits 1 when a run went over a
// stated bound (the mixed load's memory growth), after the table.
import { exceededBounds, figures, fmt } from './harness.js';

const modules: Record<string, () => Promise<{ run(): Promise<void> }>> = {
  foundation: () => import('./foundation.bench.js'),
  push: () => import('./push.bench.js'),
  events: () => import('./events.bench.js'),
  event_log: () => import('./event_log.bench.js'),
  views_drafts_alert_words: () => import('./views_drafts_alert_words.bench.js'),
  user_status: () => import('./user_status.bench.js'),
  typing_presence: () => import('./typing_presence.bench.js'),
  messages: () => import('./messages.bench.js'),
  notifications: () => import('./notifications.bench.js'),
  search: () => import('./search.bench.js'),
  message_flags: () => import('./message_flags.bench.js'),
  linkifiers: () => import('./linkifiers.bench.js'),
  write_path: () => import('./write_path.bench.js'),
  mixed_load: () => import('./mixed_load.bench.js'),
  uploads: () => import('./uploads.bench.js'),
  web_client: () => import('./web_client.bench.js'),
  testkit: () => import('./testkit.bench.js'),
  integrations: () => import('./integrations.bench.js'),
  organizations: () => import('./organizations.bench.js'),
};

const wanted = process.argv.slice(2);
for (const [name, load] of Object.entries(modules)) {
  if (wanted.length > 0 && !wanted.includes(name)) continue;
  console.log(`\n# ${name}`);
  const module = await load();
  await module.run();
}

console.log('\n| group | figure | value | baseline | ratio | target |\n|---|---|---:|---:|---:|---|');
for (const f of figures) {
  const ratio = f.baseline ? `${((f.value / f.baseline.value) * 100).toFixed(1)}%` : '';
  const baseline = f.baseline ? `${f.baseline.name}: ${fmt(f.baseline.value)}` : '';
  console.log(`| ${f.group} | ${f.name} | ${fmt(f.value)} ${f.unit} | ${baseline} | ${ratio} | ${f.target ?? ''} |`);
}
if (exceededBounds.length > 0) {
  console.log('');
  for (const message of exceededBounds) console.log(`BOUND EXCEEDED: ${message}`);
  process.exit(1);
}
process.exit(0);
