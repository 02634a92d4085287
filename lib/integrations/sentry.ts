// The Sentry integration (Zulip's zerver/webhooks/sentry/view.py): events (exceptions with their
// traceback, messages) and issues (created, assigned, resolved, ignored), from an internal
// integration or a plain webhook, and the deprecated plugin payload. https://zulip.com/integrations/sentry
import { badRequest } from '../errors.js';
import { globalTimeFromIso, pythonRepr, pythonStr, utcIsoSeconds } from './python.js';
import { UnsupportedEvent, type Integration, type WebhookInput, type WebhookMessage } from './webhook.js';
import { Wild } from './wild.js';

/** Sentry's platform -> the code block's language (Zulip's syntax_highlight_as_map). */
const LANGUAGES: Readonly<Record<string, string>> = { go: 'go', java: 'java', javascript: 'javascript', node: 'javascript', python: 'python3', ruby: 'ruby' };

/** Python's int() of a string or number, as Zulip reads the event's `version`. */
function pythonInt(value: Wild): number {
  const raw = value.value;
  if (typeof raw === 'number' && Number.isFinite(raw)) return Math.trunc(raw);
  if (typeof raw === 'string' && /^\s*[+-]?\d+\s*$/.test(raw)) return Number(raw);
  throw badRequest(`invalid literal for int() with base 10: ${pythonRepr(raw)}`);
}

function tracebackLines(lines: Wild): string {
  if (lines.isNone) return '';
  return lines
    .items()
    .map((line) => (line.value === '' ? '\n' : `     ${pythonStr(line.value)}\n`))
    .join('');
}

function eventMessage(event: Wild): { topic: string; content: string } {
  const title = pythonStr(event.at('title').value);
  const platform = pythonStr(event.at('platform').value);
  const language = LANGUAGES[platform] ?? '';
  // Events of the deprecated Raven SDKs for Python (the sample event still looks like one).
  if (platform === 'python' && pythonInt(event.at('version')) < 7 && event.get('title', '').value !== 'This is an example Python exception') {
    throw new UnsupportedEvent('Raven SDK');
  }
  const level = pythonStr(event.at('level').value);
  const link = pythonStr(event.at('web_url').value);
  const time = globalTimeFromIso(event.at('datetime').str());
  const head = `**level:** ${level}\n**timestamp:** ${time}`;
  if (event.has('exception')) {
    const filename = event.at('metadata').get('filename');
    const stacktrace = event.at('exception').at('values').items().reverse().find((value) => value.has('stacktrace'))?.at('stacktrace');
    if (stacktrace?.truthy && filename.truthy) {
      const frame = stacktrace
        .at('frames')
        .items()
        .reverse()
        .find((candidate) => candidate.get('filename').value === filename.value);
      if (frame?.truthy && frame.has('context_line') && !frame.at('context_line').isNone) {
        const traceback = `${tracebackLines(frame.get('pre_context'))}---> ${pythonStr(frame.at('context_line').value)}\n${tracebackLines(frame.get('post_context'))}`;
        const content = `**New exception:** [${title}](${link})\n\`\`\`quote\n${head}\n**filename:** ${pythonStr(filename.value)}\n\`\`\`\n\nTraceback:\n\`\`\`${language}\n${traceback}\`\`\``;
        return { topic: title, content };
      }
    }
    return { topic: title, content: `**New exception:** [${title}](${link})\n\`\`\`quote\n${head}\n**filename:** ${pythonStr(filename.value)}\n\`\`\`` };
  }
  if (event.has('logentry')) return { topic: title, content: `**New message event:** [${title}](${link})\n\`\`\`quote\n${head}\n\`\`\`` };
  throw new UnsupportedEvent('unknown-event type');
}

function issueMessage(action: string, issue: Wild, actor: Wild): { topic: string; content: string } {
  const title = pythonStr(issue.at('title').value);
  const time = globalTimeFromIso(issue.at('lastSeen').str());
  const assignedTo = issue.at('assignedTo');
  const assignee = !assignedTo.truthy
    ? 'No one'
    : assignedTo.at('type').value === 'team'
      ? `team ${pythonStr(assignedTo.at('name').value)}`
      : pythonStr(assignedTo.at('name').value);
  const who = (): string => pythonStr(actor.at('name').value);
  switch (action) {
    case 'created':
      return {
        topic: title,
        content: `**New issue created:** ${title}\n\`\`\`quote\n**level:** ${pythonStr(issue.at('level').value)}\n**timestamp:** ${time}\n**assignee:** ${assignee}\n\`\`\``,
      };
    case 'resolved':
      return { topic: title, content: `Issue **${title}** was marked as resolved by **${who()}**.` };
    case 'assigned':
      return { topic: title, content: `Issue **${title}** has now been assigned to **${assignee}** by **${who()}**.` };
    case 'ignored':
      return { topic: title, content: `Issue **${title}** was ignored by **${who()}**.` };
    default:
      throw new UnsupportedEvent(`${action} action`);
  }
}

function joinUrl(base: string, relative: string): string {
  try {
    return new URL(relative, base).href;
  } catch {
    return base.slice(0, base.lastIndexOf('/') + 1) + relative;
  }
}

/**
 * A plain webhook's payload (not an internal integration's) has the event at the top with an
 * event_id: Zulip gives it the link and time the integration's events carry. Null: the deprecated
 * plugin payload.
 */
function webhookEvent(payload: Wild): Wild | null {
  const event = payload.get('event', {});
  const eventId = event.get('event_id');
  if (!eventId.truthy) return null;
  const seconds = event.has('timestamp') ? event.at('timestamp').number() : event.at('received').number();
  const datetime = utcIsoSeconds(seconds);
  const webUrl = joinUrl(pythonStr(payload.at('url').value), `events/${pythonStr(eventId.value)}/`);
  return new Wild(event.name, { ...(event.value as object), web_url: webUrl, datetime });
}

function handle(input: WebhookInput): WebhookMessage[] {
  const payload = input.payload();
  let data = payload.get('data');
  let event: Wild | null = null;
  if (data.isNone) {
    event = webhookEvent(payload);
    if (event !== null) data = payload;
  }
  let message: { topic: string; content: string };
  if (data.truthy) {
    if (data.has('event')) message = eventMessage(event ?? data.at('event'));
    else if (data.has('issue')) message = issueMessage(pythonStr(payload.at('action').value), data.at('issue'), payload.at('actor'));
    else throw new UnsupportedEvent(pythonRepr(data.keys()));
  } else {
    const level = payload.at('level').str().toUpperCase();
    message = {
      topic: pythonStr(payload.get('project_name').value),
      content: `New [issue](${pythonStr(payload.get('url').value)}) (level: ${level}):\n\n\`\`\` quote\n${pythonStr(payload.get('message').value)}\n\`\`\``,
    };
  }
  return [message];
}

export const sentry: Integration = {
  name: 'sentry',
  displayName: 'Sentry',
  webhookName: 'Sentry',
  events: null,
  urlOptions: [],
  handle,
};
