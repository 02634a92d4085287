// Prometheus Alertmanager and Grafana alerting (Zulip's zerver/webhooks/alertmanager/view.py and
// grafana/view.py). Alertmanager: one message per topic and status, the topic and text taken from
// the labels or annotations the `name` and `desc` parameters name. Grafana: one message per alert
// (Grafana 8 and later) or per notification (Grafana 7).
// https://zulip.com/integrations/alertmanager https://zulip.com/integrations/grafana
import { globalTimeFromIso, pythonStr, stripPython } from './python.js';
import type { Integration, WebhookInput, WebhookMessage } from './webhook.js';
import type { Wild } from './wild.js';

function alertmanagerMessages(input: WebhookInput): WebhookMessage[] {
  const nameField = input.text('name') ?? 'instance';
  const descField = input.text('desc') ?? 'alertname';
  // Topics in first-seen order, each with its firing and resolved alerts (a Python dict's order).
  const topics = new Map<string, { firing: string[]; resolved: string[] }>();
  for (const alert of input.payload().at('alerts').items()) {
    const labels = alert.get('labels', {});
    const annotations = alert.get('annotations', {});
    // labels.get(field, annotations.get(field, fallback)), the fallback read first as Python does.
    const nameFallback = annotations.get(nameField, '(unknown)');
    const name = (labels.has(nameField) ? labels.at(nameField) : nameFallback).str();
    const descFallback = annotations.get(descField, `<missing field: ${descField}>`);
    const desc = (labels.has(descField) ? labels.at(descField) : descFallback).str();
    const url = alert.at('generatorURL').str().replaceAll('tab=1', 'tab=0');
    let statuses = topics.get(name);
    if (!statuses) topics.set(name, (statuses = { firing: [], resolved: [] }));
    statuses[alert.at('status').oneOf(['firing', 'resolved'])].push(`${desc} ([source](${url}))`);
  }
  const messages: WebhookMessage[] = [];
  for (const [topic, statuses] of topics) {
    for (const status of ['firing', 'resolved'] as const) {
      const lines = statuses[status];
      if (lines.length === 0) continue;
      const heading = status === 'firing' ? ':alert: **FIRING**' : ':squared_ok: **Resolved**';
      const content = lines.length === 1 ? `${heading} ${lines[0]}` : `${heading}\n${lines.map((line) => `* ${line}`).join('\n')}`;
      messages.push({ topic, content });
    }
  }
  return messages;
}

export const alertmanager: Integration = {
  name: 'alertmanager',
  displayName: 'Prometheus Alertmanager',
  webhookName: 'Alertmanager',
  events: null,
  urlOptions: [
    { name: 'name', label: 'Label or annotation naming the topic (default: instance)', kind: 'string' },
    { name: 'desc', label: 'Label or annotation describing the alert (default: alertname)', kind: 'string' },
  ],
  handle: alertmanagerMessages,
};

const NEVER_ENDS = '0001-01-01T00:00:00Z';

function listed(items: [string, string][]): string {
  return items.map(([key, value]) => `- ${key}: ${value}\n`).join('');
}

/** Grafana 8 and later (unified alerting): a message per alert, topic `[alertname]`. */
function alertMessage(alert: Wild): WebhookMessage {
  const status = alert.at('status').oneOf(['firing', 'resolved']);
  let body = status === 'firing' ? ':alert: **FIRING**\n\n' : ':checkbox: **RESOLVED**\n\n';
  let topic: string;
  const labels = alert.at('labels');
  if (labels.has('alertname') && labels.at('alertname').truthy) {
    const alertname = labels.at('alertname').str();
    topic = `[${alertname}]`;
    body += `**${alertname}**\n\n`;
  } else topic = `[${alert.at('fingerprint').str()}]`;
  body += `This alert was fired at ${globalTimeFromIso(alert.at('startsAt').str())}.`;
  const endsAt = alert.at('endsAt').str();
  if (endsAt !== NEVER_ENDS) body += `\n\nThis alert was resolved at ${globalTimeFromIso(endsAt)}.`;
  if (labels.truthy) body += `\n\nLabels:\n${listed(labels.entries().map(([key, value]) => [key, value.str()]))}\n`;
  if (alert.get('values').truthy) body += `Values:\n${listed(alert.at('values').entries().map(([key, value]) => [key, pythonStr(value.value)]))}\n`;
  else if (alert.get('valueString').truthy) body += `Values:\n${alert.at('valueString').str()}\n\n`;
  if (alert.get('annotations').truthy) body += `Annotations:\n${listed(alert.at('annotations').entries().map(([key, value]) => [key, value.str()]))}`;
  if (alert.get('generatorURL').truthy) body += `\n[Generator](${alert.at('generatorURL').str()})`;
  if (alert.get('silenceURL').truthy) body += `\n[Silence](${alert.at('silenceURL').str()})`;
  if (alert.get('imageURL').truthy) body += `\n[Image](${alert.at('imageURL').str()})`;
  return { topic, content: `${body}\n`, eventType: status };
}

const LEGACY_STATES = ['no_data', 'paused', 'alerting', 'ok', 'pending', 'unknown'] as const;

/** Grafana 7: one message, topic the notification's title. */
function legacyMessage(p: Wild): WebhookMessage {
  const topic = p.at('title').str();
  let matches = '';
  if (p.has('evalMatches') && !p.at('evalMatches').isNone) {
    for (const match of p.at('evalMatches').items()) {
      const value = match.at('value');
      matches += `**${match.at('metric').str()}:** ${pythonStr(value.isNone ? null : value.number())}\n`;
    }
  }
  const message = p.has('message') ? `${p.at('message').str()}\n\n` : '';
  const state = p.at('state').oneOf(LEGACY_STATES);
  const icon = state === 'alerting' ? ':alert:' : state === 'ok' ? ':squared_ok:' : ':info:';
  let body = `${icon} **${state.toUpperCase()}**\n\n[${p.at('ruleName').str()}](${p.at('ruleUrl').str()})\n\n${message}${matches}`;
  if (p.has('imageUrl')) body += `\n[Click to view visualization](${p.at('imageUrl').str()})`;
  return { topic, content: stripPython(body), eventType: state };
}

export const grafana: Integration = {
  name: 'grafana',
  displayName: 'Grafana',
  webhookName: 'Grafana',
  events: ['ok', 'pending', 'alerting', 'paused', 'firing', 'resolved'],
  urlOptions: [],
  handle: (input) => {
    const p = input.payload();
    return p.has('alerts') ? p.at('alerts').items().map(alertMessage) : [legacyMessage(p)];
  },
};
