// Zulip's generic JSON integration (the payload pretty-printed as Python's json.dumps does) and the
// Slack-compatible incoming webhook (text, Block Kit blocks, attachments, Slack's markup), with the
// exact topic and content of Zulip's zerver/webhooks/json and slack_incoming.
import t from 'tap';
import { json, slackIncoming } from '../lib/integrations/simple.js';
import { fnmatch, pythonBytesRepr, pythonRepr } from '../lib/integrations/python.js';
import { hook, hookFails, message } from './integration_helpers.js';

t.test('JSON: the payload in a json code block, as Python prints it (2 spaces, ASCII only), topic JSON', async (t) => {
  const payload = { name: 'Zulip', nested: { list: [1, 2.5, true, null, 0.00001, 1.5e-7], empty: {}, emptyList: [] }, unicode: 'héllo ✓ 😀', quote: 'a"b\\c\n\u007f' };
  // What Python's json.dumps(payload, indent=2) prints for the same payload.
  const python = '{\n  "name": "Zulip",\n  "nested": {\n    "list": [\n      1,\n      2.5,\n      true,\n      null,\n      1e-05,\n      1.5e-07\n    ],\n    "empty": {},\n    "emptyList": []\n  },\n  "unicode": "h\\u00e9llo \\u2713 \\ud83d\\ude00",\n  "quote": "a\\"b\\\\c\\n\\u007f"\n}';
  t.same(message(json, payload), { topic: 'JSON', content: `\`\`\`json\n${python}\n\`\`\`` });
  t.same(message(json, {}).content, '```json\n{}\n```');
  hookFails(t, json, [1, 2], {}, { status: 400, code: 'BAD_REQUEST', msg: 'payload is not a dict' });
  hookFails(t, json, null, { raw: 'not json' }, { status: 400, code: 'INVALID_JSON', msg: 'Malformed JSON' });
});

t.test("Python's repr and fnmatch as the integrations use them", async (t) => {
  t.equal(pythonRepr([null, true, 1, 2.5, 1e22, 1e-7, "it's", 'say "hi"', { a: 'b' }]), "[None, True, 1, 2.5, 1e+22, 1e-07, \"it's\", 'say \"hi\"', {'a': 'b'}]");
  t.equal(pythonBytesRepr(Buffer.from('{"error": "no"}\n\u00e9')), 'b\'{"error": "no"}\\n\\xc3\\xa9\'');
  t.equal(pythonBytesRepr(Buffer.from("it's")), 'b"it\'s"');
  t.ok(fnmatch('issue_comment', 'issue*'));
  t.ok(fnmatch('a.b', 'a.b') && !fnmatch('axb', 'a.b'), 'a dot is a dot');
  t.ok(fnmatch('[x]', '[[]x]') && fnmatch('a-b', 'a[-]b') && fnmatch('a!b', 'a[!x]b'));
  t.ok(fnmatch('a/b', 'a*') && fnmatch('line\nbreak', 'line*'), '* also matches / and newlines');
  t.ok(!fnmatch('Push Hook', 'push*'), 'case matters');
  t.ok(fnmatch('[', '[') && fnmatch('a[b', 'a[b'), 'an unclosed [ is literal');
});

const topicOf = (payload: unknown, params: Record<string, string> = {}) => message(slackIncoming, payload, { params }).topic;

t.test('Slack: text, with its icon emoji; the channel names the topic (without # or @), else the empty topic', async (t) => {
  t.same(message(slackIncoming, { text: 'Hello, world.' }), { topic: '', content: 'Hello, world.' });
  t.same(message(slackIncoming, { text: 'chris has started deploying', icon_emoji: ':zap:', channel: '#devops' }), { topic: 'devops', content: ':zap: chris has started deploying' });
  t.equal(topicOf({ text: 'x', channel: '@alice' }), 'alice');
  t.equal(topicOf({ text: 'x', channel: 'C1H9RESGL' }), 'C1H9RESGL');
  t.equal(topicOf({ text: 'x', channel: '#devops' }, { topic: 'mine' }), 'mine', 'the topic parameter wins');
  t.same(hook(slackIncoming, { text: null }), [], 'nothing to say: nothing posted');
  t.same(hook(slackIncoming, { text: '  ' }), []);
});

t.test("Slack's markup: *bold*, _italic_, ~strike~ around words only; <links|labels> and <mailto:...>", async (t) => {
  const cases: [string, string][] = [
    ['some *foo* word', 'some **foo** word'],
    ['*foo*', '**foo**'],
    ['*foo* *bar*', '**foo** **bar**'],
    ['*foo*a*bar*', '*foo*a*bar*'],
    ['some _foo_ word', 'some *foo* word'],
    ['~gone~ and ~~kept~~', '~~gone~~ and ~~kept~~'],
    ['snake_case_name', 'snake_case_name'],
    ['(*a*), "_b_"', '(**a**), "*b*"'],
    ['see <https://example.com|the site> or <https://example.com/a?b=c>', 'see [the site](https://example.com) or https://example.com/a?b=c'],
    ['write <mailto:alice@example.com|alice@example.com>', 'write mailto:alice@example.com'],
    ['<@U123|alice> says <not a link>', '<@U123|alice> says <not a link>'],
  ];
  for (const [input, output] of cases) t.equal(message(slackIncoming, { text: input }).content, output, input);
});

t.test('Slack: blocks (sections, fields, images, headers, dividers, context; actions show nothing)', async (t) => {
  const blocks = [
    { type: 'header', text: { type: 'plain_text', text: 'Hello from TaskBot' } },
    { type: 'section', text: { type: 'mrkdwn', text: 'Danny Torrence left the following _review_ for your property:' } },
    {
      type: 'section',
      block_id: 'section567',
      text: { type: 'mrkdwn', text: '<https://google.com|Overlook Hotel> \n :star: \n Doors had too many axe holes.' },
      accessory: { type: 'image', image_url: 'https://example.com/hotel.jpg', alt_text: 'Haunted hotel image' },
    },
    { type: 'section', fields: [{ type: 'mrkdwn', text: '*Average Rating*\n1.0' }] },
    { type: 'divider' },
    { type: 'image', image_url: 'https://example.com/cat.jpg', alt_text: 'cute cat' },
    { type: 'context', elements: [{ type: 'image', image_url: 'https://example.com/eyes.png', alt_text: 'eyes' }, { type: 'mrkdwn', text: 'View all tasks with `/task list`' }] },
    { type: 'actions', elements: [{ type: 'button', text: { type: 'plain_text', text: 'Reply to review' } }] },
    { type: 'rich_text', elements: [] },
  ];
  t.same(message(slackIncoming, { channel: 'C1H9RESGL', blocks }), {
    topic: 'C1H9RESGL',
    content: [
      '## Hello from TaskBot',
      'Danny Torrence left the following *review* for your property:',
      '[Overlook Hotel](https://google.com) \n :star: \n Doors had too many axe holes.\n\n[Haunted hotel image](https://example.com/hotel.jpg)',
      '**Average Rating**\n1.0',
      '----',
      '[cute cat](https://example.com/cat.jpg)',
      '[eyes](https://example.com/eyes.png)\n\nView all tasks with `/task list`',
    ].join('\n\n'),
  });
  const fields = ['one', 'two', 'three', 'four', 'fi|ve\nsix'].map((text) => ({ type: 'plain_text', text, emoji: true }));
  t.same(message(slackIncoming, { blocks: [{ type: 'section', fields }] }).content, '| | |\n|-|-|\n| one | two |\n| three | four |\n| fi ve six |  |');
  hookFails(t, slackIncoming, { blocks: [{ type: 'carousel' }] }, {}, { status: 400, code: 'BAD_REQUEST', msg: "Invalid payload['blocks'][0]['type']" });
  hookFails(t, slackIncoming, { blocks: [{ type: 'header', text: { type: 'mrkdwn', text: 'x' } }] }, {}, { status: 400, code: 'BAD_REQUEST', msg: 'Invalid payload[\'blocks\'][0][\'text\']["type"]' });
  hookFails(t, slackIncoming, { blocks: [{ type: 'section', text: { type: 'mrkdwn' } }] }, {}, { status: 400, code: 'BAD_REQUEST', msg: "text key is missing from payload['blocks'][0]['text']" });
  hookFails(t, slackIncoming, { blocks: [{ type: 'image', image_url: 'javascript:alert(1)', alt_text: 'x' }] }, {}, { status: 400, code: 'BAD_REQUEST', msg: "payload['blocks'][0]['image_url'] is not a URL" });
});

t.test('Slack: attachments (title, pretext, text, fields, blocks, image, footer, time)', async (t) => {
  const attachment = {
    title: '[FIRING:2] InstanceDown for api-server',
    title_link: 'https://alertmanager.local//#/alerts?receiver=default',
    text: ':chart_with_upwards_trend: *<http://generator.local/1|Graph>*   :notebook: *<https://runbook.local/1|Runbook>*\n\n*Alert details*:\n   • *env:* `prod`\n  \n',
    fallback: 'ignored',
    color: 'danger',
  };
  t.same(message(slackIncoming, { channel: '#prometheus-alerts', username: 'Alertmanager', blocks: null, attachments: [attachment] }), {
    topic: 'prometheus-alerts',
    content: '## [[FIRING:2] InstanceDown for api-server](https://alertmanager.local//#/alerts?receiver=default)\n\n:chart_with_upwards_trend: **[Graph](http://generator.local/1)**   :notebook: **[Runbook](https://runbook.local/1)**\n\n**Alert details**:\n   • **env:** `prod`',
  });
  const fields = [
    { title: 'Requested by', value: 'Some user', short: true },
    { title: 'Title with null value', value: null },
    { title: 'Title without value' },
    { title: null, value: 'Value with null title' },
    { value: 'Value without title' },
    { title: null, value: null },
  ];
  t.same(message(slackIncoming, { attachments: [{ color: 'good', fields, pretext: 'Build bla bla succeeded', mrkdwn_in: ['pretext'] }] }).content,
    'Build bla bla succeeded\n\n**Requested by**: Some user\n**Title with null value**\n**Title without value**\nValue with null title\nValue without title');
  const pieces = { title: 'Sample title.', title_link: 'https://www.google.com', image_url: 'https://example.com/cat.jpg', ts: 1655945306, text: 'Sample text.', pretext: 'Sample pretext.', footer: 'Sample footer.' };
  t.same(message(slackIncoming, { attachments: [pieces] }).content,
    '## [Sample title.](https://www.google.com)\n\nSample pretext.\n\nSample text.\n\n[](https://example.com/cat.jpg)\n\nSample footer.\n\n<time:2022-06-23T00:48:26+00:00>');
  t.same(message(slackIncoming, { attachments: [{ ...pieces, title_link: null, ts: '1655945306.000200', footer: null }] }).content,
    '## Sample title.\n\nSample pretext.\n\nSample text.\n\n[](https://example.com/cat.jpg)\n\n<time:2022-06-23T00:48:26+00:00>', 'a ts string holding a float');
  t.same(hook(slackIncoming, { attachments: [{ title: null, title_link: null, image_url: null, ts: null, text: null, pretext: null, footer: null }] }), []);
  t.same(message(slackIncoming, { attachments: [{ blocks: [{ type: 'divider' }] }], text: 'not shown' }).content, '----', 'text only when blocks and attachments show nothing');
  hookFails(t, slackIncoming, { attachments: [{ ts: 'soon' }] }, {}, { status: 400, code: 'BAD_REQUEST', msg: "payload['attachments'][0]['ts'] is not an integer" });
  hookFails(t, slackIncoming, { attachments: [{ ts: 1e18 }] }, {}, { status: 400, code: 'BAD_REQUEST', msg: 'timestamp out of range for platform time_t: 1000000000000000000' });
});

t.test("Slack: a form body's `payload` field holds the JSON", async (t) => {
  const form = { contentType: 'application/x-www-form-urlencoded', raw: '' };
  t.same(message(slackIncoming, null, { ...form, params: { payload: JSON.stringify({ text: 'from a form', channel: 'devops' }) } }), { topic: 'devops', content: 'from a form' });
  hookFails(t, slackIncoming, null, form, { status: 400, code: 'REQUEST_VARIABLE_MISSING', msg: "Missing 'payload' argument", extra: { var_name: 'payload' } });
  hookFails(t, slackIncoming, null, { ...form, params: { payload: '{"text":' } }, { status: 400, code: 'INVALID_JSON', msg: 'Malformed JSON' });
});

t.test('Slack: a megabyte of markup built to make the patterns backtrack is converted (linear work)', async (t) => {
  // Quadratic work on this text would not finish within the test's timeout.
  const hostile = `${'<a@b'}${'.c'.repeat(200_000)} ${'<'.repeat(100_000)}${' *'.repeat(100_000)}${'_x'.repeat(100_000)}`;
  t.equal(hook(slackIncoming, { text: hostile }).length, 1);
});
