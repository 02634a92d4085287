// Prometheus Alertmanager and Grafana: each alert's topic and content as Zulip's
// zerver/webhooks/alertmanager and grafana write them; payloads shaped as Alertmanager
// (https://prometheus.io/docs/alerting/latest/configuration/#webhook_config) and Grafana
// (https://grafana.com/docs/grafana/latest/alerting/configure-notifications/manage-contact-points/integrations/webhook-notifier/) document them.
import t from 'tap';
import { alertmanager, grafana } from '../lib/integrations/alerting.js';
import { hook, hookFails, message } from './integration_helpers.js';

const GRAPH = 'http://cobalt:9090/graph?g0.expr=avg+by%28host%29+%28sensors_temp_input%7Bfeature%3D~%22core_%5B0-9%5D%2B%22%7D%29+%3E+15&g0.tab=';
const alert = (status: string, description: string, host = 'andromeda') => ({
  status,
  labels: { alertname: 'High CPU Temperature', host, severity: 'critical' },
  annotations: { description, topic: host, summary: 'High CPU core temperature' },
  startsAt: '2020-02-06T00:17:58.432911368Z',
  endsAt: '0001-01-01T00:00:00Z',
  generatorURL: `${GRAPH}1`,
  fingerprint: 'a1bc48475b20e73d',
});
const notification = (alerts: unknown[]) => ({ receiver: 'ops-zulip', status: 'firing', alerts, groupLabels: {}, commonLabels: {}, externalURL: 'http://ops1:9093', version: '4', groupKey: '{}:{}' });
const NAMED = { params: { name: 'topic', desc: 'description' } };

t.test('Alertmanager: firing alerts listed, one alert inline; the links open the graph tab', async (t) => {
  t.same(hook(alertmanager, notification([alert('firing', 'CPU core temperature is 34.75C'), alert('firing', 'CPU core temperature is 17.625C')]), NAMED), [
    {
      topic: 'andromeda',
      content: `:alert: **FIRING**\n* CPU core temperature is 34.75C ([source](${GRAPH}0))\n* CPU core temperature is 17.625C ([source](${GRAPH}0))`,
    },
  ]);
  t.same(message(alertmanager, notification([alert('resolved', 'CPU core temperature is 34.75C')]), NAMED), {
    topic: 'andromeda',
    content: `:squared_ok: **Resolved** CPU core temperature is 34.75C ([source](${GRAPH}0))`,
  });
});

t.test('Alertmanager: a message per topic and status, in the order they first appear', async (t) => {
  const alerts = [alert('resolved', 'A', 'andromeda'), alert('firing', 'B', 'cobalt'), alert('firing', 'C', 'andromeda')];
  t.same(hook(alertmanager, notification(alerts), NAMED).map((m) => [m.topic, m.content.split(' ')[1]]), [
    ['andromeda', '**FIRING**'],
    ['andromeda', '**Resolved**'],
    ['cobalt', '**FIRING**'],
  ]);
});

t.test('Alertmanager: by default the topic is the instance label and the text the alertname; missing fields say so', async (t) => {
  const withInstance = { ...alert('firing', 'x'), labels: { alertname: 'High CPU Temperature', instance: 'cobalt:9100' } };
  t.same(message(alertmanager, notification([withInstance])), { topic: 'cobalt:9100', content: `:alert: **FIRING** High CPU Temperature ([source](${GRAPH}0))` });
  const bare = { status: 'firing', generatorURL: 'http://prom/graph' };
  t.same(message(alertmanager, notification([bare])), { topic: '(unknown)', content: ':alert: **FIRING** <missing field: alertname> ([source](http://prom/graph))' });
  hookFails(t, alertmanager, notification([{ ...bare, status: 'pending' }]), {}, { status: 400, code: 'BAD_REQUEST', msg: "Invalid payload['alerts'][0]['status']" });
  hookFails(t, alertmanager, { receiver: 'x' }, {}, { status: 400, code: 'BAD_REQUEST', msg: "payload['alerts'] is missing" });
});

const legacy = (state: string, extra: Record<string, unknown> = {}) => ({
  dashboardId: 1,
  evalMatches: [{ value: 100, metric: 'High value', tags: null }, { value: 200, metric: 'Higher Value', tags: null }],
  imageUrl: 'https://grafana.com/assets/img/blog/mixed_styles.png',
  message: 'Someone is testing the alert notification within grafana.',
  orgId: 0,
  panelId: 1,
  ruleId: 0,
  ruleName: 'Test rule',
  ruleUrl: 'http://localhost:3000/',
  state,
  tags: {},
  title: `[${state[0]!.toUpperCase()}${state.slice(1)}] Test notification`,
  ...extra,
});
const VISUAL = '[Click to view visualization](https://grafana.com/assets/img/blog/mixed_styles.png)';
const TEXT = 'Someone is testing the alert notification within grafana.';

t.test('Grafana 7: state, rule, message, matches and image; no message, no data', async (t) => {
  t.same(message(grafana, legacy('alerting')), {
    topic: '[Alerting] Test notification',
    content: `:alert: **ALERTING**\n\n[Test rule](http://localhost:3000/)\n\n${TEXT}\n\n**High value:** 100\n**Higher Value:** 200\n\n${VISUAL}`,
  });
  t.same(message(grafana, legacy('ok', { evalMatches: [{ value: 0, metric: 'High value', tags: null }] })).content,
    `:squared_ok: **OK**\n\n[Test rule](http://localhost:3000/)\n\n${TEXT}\n\n**High value:** 0\n\n${VISUAL}`);
  t.same(message(grafana, legacy('paused', { evalMatches: undefined })).content, `:info: **PAUSED**\n\n[Test rule](http://localhost:3000/)\n\n${TEXT}\n\n\n${VISUAL}`);
  t.same(message(grafana, legacy('pending')).content, `:info: **PENDING**\n\n[Test rule](http://localhost:3000/)\n\n${TEXT}\n\n**High value:** 100\n**Higher Value:** 200\n\n${VISUAL}`);
  const noMessage = legacy('alerting', { message: undefined, imageUrl: undefined, evalMatches: [{ value: 21.573108436586445, metric: 'A-series', tags: {} }], title: '[Alerting] No Message alert' });
  t.same(message(grafana, noMessage), { topic: '[Alerting] No Message alert', content: ':alert: **ALERTING**\n\n[Test rule](http://localhost:3000/)\n\n**A-series:** 21.573108436586445' });
  const noData = legacy('alerting', { message: 'The panel has no data.', imageUrl: undefined, evalMatches: [], title: '[Alerting] No Data alert' });
  t.same(message(grafana, noData).content, ':alert: **ALERTING**\n\n[Test rule](http://localhost:3000/)\n\nThe panel has no data.');
  t.same(message(grafana, legacy('alerting', { evalMatches: [{ value: null, metric: 'gone' }], imageUrl: undefined, message: undefined })).content,
    ':alert: **ALERTING**\n\n[Test rule](http://localhost:3000/)\n\n**gone:** None');
  hookFails(t, grafana, legacy('broken'), {}, { status: 400, code: 'BAD_REQUEST', msg: "Invalid payload['state']" });
});

const unified = (extra: Record<string, unknown>) => ({
  status: 'firing',
  labels: { alertname: 'High memory usage', team: 'blue', zone: 'us-1' },
  annotations: { description: 'The system has high memory usage', runbook_url: 'https://myrunbook.com/runbook/1234', summary: 'This alert was triggered for zone us-1' },
  startsAt: '2021-10-12T09:51:03.157076+02:00',
  endsAt: '0001-01-01T00:00:00Z',
  generatorURL: 'https://play.grafana.org/alerting/1afz29v7z/edit',
  fingerprint: 'c6eadffa33fcdf37',
  silenceURL: 'https://play.grafana.org/alerting/silence/new?alertmanager=grafana&matchers=alertname%3DT2%2Cteam%3Dblue%2Czone%3Dus-1',
  dashboardURL: '',
  panelURL: '',
  valueString: "[ metric='' labels={} value=14151.331895396988 ]",
  ...extra,
});
const grafanaPayload = (alerts: unknown[]) => ({ receiver: 'My Super Webhook', status: 'firing', orgId: 1, alerts, groupLabels: {}, commonLabels: {}, externalURL: 'https://play.grafana.org/', version: '1', title: '[FIRING:1]', state: 'alerting' });

t.test('Grafana 8 and later: a message per alert, times in the sender\'s offset, labels, values, annotations and links', async (t) => {
  const messages = hook(grafana, grafanaPayload([unified({}), unified({ labels: { alertname: 'High CPU usage', team: 'blue', zone: 'eu-1' }, startsAt: '2021-10-12T09:56:03.157076+02:00' })]));
  t.same(messages.map((m) => [m.topic, m.eventType]), [['[High memory usage]', 'firing'], ['[High CPU usage]', 'firing']]);
  t.same(messages[0]!.content, [
    ':alert: **FIRING**',
    '',
    '**High memory usage**',
    '',
    'This alert was fired at <time:2021-10-12T09:51:03+02:00>.',
    '',
    'Labels:',
    '- alertname: High memory usage',
    '- team: blue',
    '- zone: us-1',
    '',
    'Values:',
    "[ metric='' labels={} value=14151.331895396988 ]",
    '',
    'Annotations:',
    '- description: The system has high memory usage',
    '- runbook_url: https://myrunbook.com/runbook/1234',
    '- summary: This alert was triggered for zone us-1',
    '',
    '[Generator](https://play.grafana.org/alerting/1afz29v7z/edit)',
    '[Silence](https://play.grafana.org/alerting/silence/new?alertmanager=grafana&matchers=alertname%3DT2%2Cteam%3Dblue%2Czone%3Dus-1)',
  ].join('\n'));
  const resolved = unified({ status: 'resolved', labels: { alertname: 'TestAlert', instance: 'Grafana' }, annotations: { summary: 'Notification test' }, startsAt: '2022-08-31T05:54:04.52289368Z', endsAt: '2022-08-31T10:30:00.52288431Z', generatorURL: '', valueString: "[ metric='foo' labels={instance=bar} value=10 ]" });
  t.same(message(grafana, grafanaPayload([resolved])), {
    topic: '[TestAlert]',
    content: `:checkbox: **RESOLVED**\n\n**TestAlert**\n\nThis alert was fired at <time:2022-08-31T05:54:04+00:00>.\n\nThis alert was resolved at <time:2022-08-31T10:30:00+00:00>.\n\nLabels:\n- alertname: TestAlert\n- instance: Grafana\n\nValues:\n[ metric='foo' labels={instance=bar} value=10 ]\n\nAnnotations:\n- summary: Notification test\n\n[Silence](${resolved.silenceURL})`,
  });
});

t.test('Grafana 11: values as a map, an image; without an alertname the fingerprint names the topic', async (t) => {
  const withValues = unified({ labels: { debug: 'true', grafana_folder: 'device' }, annotations: { summary: 'High memory usage' }, startsAt: '2024-03-01T02:09:00Z', fingerprint: 'e6349a25f5ef0e9e', values: { A: 2473545728, B: 0, C: 1, minute: 9, ratio: 0.00001 }, imageURL: 'https://grafana.com/assets/img/blog/mixed_styles.png', generatorURL: 'https://play.grafana.org/view', silenceURL: '' });
  t.same(message(grafana, grafanaPayload([withValues])), {
    topic: '[e6349a25f5ef0e9e]',
    content: ':alert: **FIRING**\n\nThis alert was fired at <time:2024-03-01T02:09:00+00:00>.\n\nLabels:\n- debug: true\n- grafana_folder: device\n\nValues:\n- A: 2473545728\n- B: 0\n- C: 1\n- minute: 9\n- ratio: 1e-05\n\nAnnotations:\n- summary: High memory usage\n\n[Generator](https://play.grafana.org/view)\n[Image](https://grafana.com/assets/img/blog/mixed_styles.png)',
  });
  t.same(hook(grafana, grafanaPayload([withValues]), { params: { only_events: '["resolved"]' } }), [], 'only_events on the status');
  hookFails(t, grafana, grafanaPayload([unified({ startsAt: '31/12/2024' })]), {}, { status: 400, code: 'BAD_REQUEST', msg: "Invalid isoformat string: '31/12/2024'" });
});
