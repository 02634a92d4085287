// The machine-readable list of incoming webhook integrations (what a listing and the web client's
// integration URL generator show), in the shape of Zulip's realm_incoming_webhook_bots.
import t from 'tap';
import { INTEGRATIONS, integrationSummarySchema, listIntegrations } from '../lib/integrations/registry.js';
import { startServer } from './helpers.js';

t.test('every integration: its URL name, display name, event types and URL options', async (t) => {
  const list = listIntegrations();
  t.same(list.map((entry) => entry.name), ['alertmanager', 'gitea', 'github', 'gitlab', 'grafana', 'json', 'sentry', 'slack_incoming']);
  for (const entry of list) t.ok(integrationSummarySchema.safeParse(entry).success, entry.name);
  const github = list.find((entry) => entry.name === 'github')!;
  t.equal(github.display_name, 'GitHub');
  t.ok(github.all_event_types!.includes('push_commits') && github.all_event_types!.includes('opened_pull_request'));
  t.same(github.url_options, [
    { key: 'branches', label: 'Filter by branches (comma-separated list)', validator: 'check_string' },
    { key: 'ignore_private_repositories', label: 'Exclude notifications from private repositories', validator: 'check_bool' },
  ]);
  t.same(list.find((entry) => entry.name === 'grafana')!.all_event_types, ['ok', 'pending', 'alerting', 'paused', 'firing', 'resolved']);
  t.equal(list.find((entry) => entry.name === 'sentry')!.all_event_types, null, 'no event filtering');
  t.same([...INTEGRATIONS.keys()].sort(), list.map((entry) => entry.name));
});

t.test("POST /register's realm_incoming_webhook_bots is the list, as Zulip's fetch type gives it", async (t) => {
  const s = await startServer();
  t.teardown(() => s.close());
  const reply = await s.request('POST', '/register', { as: s.owner, params: { fetch_event_types: ['realm_incoming_webhook_bots'] } });
  t.same(reply.body.realm_incoming_webhook_bots, listIntegrations());
  t.same(listIntegrations()[0]!.config_options, [], 'no integration takes options at bot creation');
});
