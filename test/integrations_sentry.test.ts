// The Sentry integration: exception events with their traceback, message events, issues (created,
// assigned, resolved, ignored), plain webhook payloads and the deprecated plugin payload, with the
// exact topic and content of Zulip's zerver/webhooks/sentry; payloads shaped as Sentry documents
// them (https://docs.sentry.io/organization/integrations/integration-platform/webhooks/).
import t from 'tap';
import { sentry } from '../lib/integrations/sentry.js';
import { hookFails, message, unsupported } from './integration_helpers.js';

const ISSUES = 'https://sentry.io/organizations/hypro999-personal-organization/issues';
const actor = { type: 'user', id: '1', name: 'Hemanth V. Alluri' };
const installation = { uuid: 'b44d8f7b-e8b4-4e3e-a07b-ecc5b7e9a6b4' };

function pythonEvent(extra: Record<string, unknown> = {}) {
  return {
    event_id: '599349254a1447a99774b5310711c1a8',
    title: 'Exception: Custom exception!',
    platform: 'python',
    version: '7',
    level: 'error',
    web_url: `${ISSUES}/1635244907/events/599349254a1447a99774b5310711c1a8/`,
    datetime: '2020-04-28T13:56:05.143786Z',
    metadata: { filename: 'trigger-exception.py', type: 'Exception', value: 'Custom exception!' },
    exception: {
      values: [
        {
          type: 'Exception',
          value: 'Custom exception!',
          stacktrace: {
            frames: [
              { filename: 'other.py', context_line: 'x = 1', pre_context: [], post_context: [] },
              {
                filename: 'trigger-exception.py',
                context_line: '        raise Exception("Custom exception!")',
                pre_context: ['', '', 'if __name__ == "__main__":', '    sentry_sdk.init(dsn=SECRET_DSN)', '    try:'],
                post_context: ['    except Exception as e:', '        sentry_sdk.capture_exception(e)', ''],
              },
            ],
          },
        },
      ],
    },
    ...extra,
  };
}

const eventPayload = (event: unknown) => ({ action: 'created', installation, data: { event, triggered_rule: 'Send a notification' }, actor: { type: 'application', id: 'sentry', name: 'Sentry' } });
const HEAD = `**New exception:** [Exception: Custom exception!](${ISSUES}/1635244907/events/599349254a1447a99774b5310711c1a8/)\n\`\`\`quote\n**level:** error\n**timestamp:** <time:2020-04-28T13:56:05+00:00>`;

t.test("an exception event: the frame of the exception's file as a traceback in the platform's language", async (t) => {
  t.same(message(sentry, eventPayload(pythonEvent())), {
    topic: 'Exception: Custom exception!',
    content: `${HEAD}\n**filename:** trigger-exception.py\n\`\`\`\n\nTraceback:\n\`\`\`python3\n\n\n     if __name__ == "__main__":\n         sentry_sdk.init(dsn=SECRET_DSN)\n         try:\n--->         raise Exception("Custom exception!")\n         except Exception as e:\n             sentry_sdk.capture_exception(e)\n\n\`\`\``,
  });
  const go = pythonEvent({ platform: 'go' });
  t.match(message(sentry, eventPayload(go)).content, /\nTraceback:\n```go\n/);
  t.match(message(sentry, eventPayload(pythonEvent({ platform: 'elixir' }))).content, /\nTraceback:\n```\n/, 'an unknown platform: no language');
});

t.test('an exception event without a usable frame: no traceback; without a filename: None', async (t) => {
  const noContext = pythonEvent();
  noContext.exception.values[0]!.stacktrace.frames[1]!.context_line = null as unknown as string;
  t.same(message(sentry, eventPayload(noContext)).content, `${HEAD}\n**filename:** trigger-exception.py\n\`\`\``);
  t.same(message(sentry, eventPayload(pythonEvent({ metadata: { type: 'TypeError' } }))).content, `${HEAD}\n**filename:** None\n\`\`\``);
});

t.test('a message event; old Python SDKs (Raven) are unsupported, except the sample event', async (t) => {
  const event = { ...pythonEvent(), title: 'A simple message-based issue.', level: 'info', exception: undefined, logentry: { formatted: 'A simple message-based issue.' } };
  t.same(message(sentry, eventPayload(event)), {
    topic: 'A simple message-based issue.',
    content: `**New message event:** [A simple message-based issue.](${ISSUES}/1635244907/events/599349254a1447a99774b5310711c1a8/)\n\`\`\`quote\n**level:** info\n**timestamp:** <time:2020-04-28T13:56:05+00:00>\n\`\`\``,
  });
  hookFails(t, sentry, eventPayload(pythonEvent({ version: '5' })), {}, unsupported('Sentry', 'Raven SDK'));
  const sample = { ...event, title: 'This is an example Python exception', version: '5', level: 'error' };
  t.match(message(sentry, eventPayload(sample)).content, /^\*\*New message event:\*\* \[This is an example Python exception\]/);
  const neither = { ...event, logentry: undefined };
  hookFails(t, sentry, eventPayload(JSON.parse(JSON.stringify(neither))), {}, unsupported('Sentry', 'unknown-event type'));
});

const issue = (assignedTo: unknown) => ({ id: '1638844654', title: 'A test message event from golang.', level: 'info', lastSeen: '2020-04-30T06:14:13.1234Z', assignedTo });
const issuePayload = (action: string, assignedTo: unknown = null) => ({ action, installation, data: { issue: issue(assignedTo) }, actor });

t.test('issues created, assigned (to a person or a team), resolved and ignored; other actions are unsupported', async (t) => {
  t.same(message(sentry, issuePayload('created')), {
    topic: 'A test message event from golang.',
    content: '**New issue created:** A test message event from golang.\n```quote\n**level:** info\n**timestamp:** <time:2020-04-30T06:14:13+00:00>\n**assignee:** No one\n```',
  });
  t.same(message(sentry, issuePayload('assigned', { type: 'user', id: '1', name: 'Hemanth V. Alluri', email: 'h@example.com' })).content,
    'Issue **A test message event from golang.** has now been assigned to **Hemanth V. Alluri** by **Hemanth V. Alluri**.');
  t.same(message(sentry, issuePayload('assigned', { type: 'team', id: '2', name: 'lone-wolf' })).content,
    'Issue **A test message event from golang.** has now been assigned to **team lone-wolf** by **Hemanth V. Alluri**.');
  t.same(message(sentry, issuePayload('resolved')).content, 'Issue **A test message event from golang.** was marked as resolved by **Hemanth V. Alluri**.');
  t.same(message(sentry, issuePayload('ignored')).content, 'Issue **A test message event from golang.** was ignored by **Hemanth V. Alluri**.');
  hookFails(t, sentry, issuePayload('archived'), {}, unsupported('Sentry', 'archived action'));
  hookFails(t, sentry, { action: 'created', installation, data: { installation } }, {}, unsupported('Sentry', "['installation']"));
});

t.test("a plain webhook's payload: the event's link from the issue URL and its time from the timestamp", async (t) => {
  const payload = {
    id: '1972208801',
    project: 'python',
    project_name: 'python',
    url: 'https://sentry.io/organizations/bar-foundation/issues/1972208801/?referrer=webhooks_plugin',
    event: { ...pythonEvent({ title: 'ValueError: new sentry error.', web_url: undefined, datetime: undefined }), event_id: 'c916dccfd58e41dcabaebef0091f0736', timestamp: 1603322711.2, received: 1603322712.5 },
  };
  t.match(message(sentry, JSON.parse(JSON.stringify(payload))), {
    topic: 'ValueError: new sentry error.',
    content: /^\*\*New exception:\*\* \[ValueError: new sentry error\.\]\(https:\/\/sentry\.io\/organizations\/bar-foundation\/issues\/1972208801\/events\/c916dccfd58e41dcabaebef0091f0736\/\)\n```quote\n\*\*level:\*\* error\n\*\*timestamp:\*\* <time:2020-10-21T23:25:11\+00:00>/,
  });
  const { timestamp: _, ...received } = payload.event;
  t.match(message(sentry, JSON.parse(JSON.stringify({ ...payload, event: received }))).content, /<time:2020-10-21T23:25:12\+00:00>/, 'without a timestamp, when it was received');
});

t.test('the deprecated plugin payload; malformed payloads', async (t) => {
  const old = { project: 'zulip', project_name: 'zulip', level: 'error', url: 'https://sentry.io/zulip/zulip/issues/156699934/', message: 'This is an example python exception', event: { received: 1473185565.0 } };
  t.same(message(sentry, old), { topic: 'zulip', content: 'New [issue](https://sentry.io/zulip/zulip/issues/156699934/) (level: ERROR):\n\n``` quote\nThis is an example python exception\n```' });
  hookFails(t, sentry, eventPayload(pythonEvent({ datetime: 'yesterday' })), {}, { status: 400, code: 'BAD_REQUEST', msg: "Invalid isoformat string: 'yesterday'" });
  hookFails(t, sentry, eventPayload(pythonEvent({ version: 'seven' })), {}, { status: 400, code: 'BAD_REQUEST', msg: "invalid literal for int() with base 10: 'seven'" });
  hookFails(t, sentry, { action: 'created', data: { issue: issue(null) } }, {}, { status: 400, code: 'BAD_REQUEST', msg: "payload['actor'] is missing" });
});
