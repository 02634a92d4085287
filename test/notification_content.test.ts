// A message as a notification shows it (Zulip's get_mobile_push_content and truncate_content):
// the rendered HTML of parley's own renderer turned into plain text.
import t from 'tap';
import Database from 'better-sqlite3';
import { createChatServer } from '../lib/index.js';
import { contextOf } from '../lib/context.js';
import { renderMessage } from '../lib/domain/message_render.js';
import { notificationText, truncateContent } from '../lib/notifications/content.js';
import { silentLogger } from '../lib/logger.js';

const chat = createChatServer(new Database(':memory:'), { logger: silentLogger });
t.teardown(() => chat.close());
await chat.admin.initOrganization({ email: 'ada@example.com', fullName: 'Ada' });
const ctx = contextOf(chat);
const REALM = 'http://localhost:9991';
const text = (markdown: string) => notificationText(renderMessage(ctx, markdown).html, REALM);

t.test('Formatting goes, text stays: emphasis, links, mentions, escaped characters', async (t) => {
  t.equal(text('**bold** _it_ [a link](https://example.com) & <b>'), 'bold it a link & <b>');
  t.equal(text('@**Ada** and @_**Ada** and @**all**'), '@Ada and Ada and @all');
  t.equal(text('line one\nline two'), 'line one\nline two');
});

t.test('Emoji become their characters; images their alt text', async (t) => {
  t.equal(text(':smile: :thumbs_up:'), '🙂 👍');
  t.equal(text('![a diagram](https://example.com/d.png)'), 'a diagram');
});

t.test('Quotes become "> " lines; next to new text they collapse to […], with their "said:" line', async (t) => {
  t.equal(text('> only a quote\n> two lines'), '> only a quote\n> two lines\n');
  t.equal(text('> quoted\n\nreply'), '[…]\nreply');
  t.equal(text(`@_**Ada|1** [said](${REALM}/#narrow/channel/1-general/topic/x/near/5):\n\`\`\`quote\nhi\n\`\`\`\nok`), '[…]\nok');
});

t.test('Ordered lists are numbered, nested ones indented; spoilers show their header', async (t) => {
  t.equal(text('3. three\n4. four'), '3. three\n4. four');
  t.equal(text('1. one\n   1. inner\n2. two'), '1. one\n  1. inner\n2. two');
  t.equal(text('```spoiler Ending\nhidden\n```'), 'Ending (…)\n');
  t.equal(text('```spoiler\nhidden\n```'), '(…)\n');
});

t.test('Content is cut at 200 characters (not UTF-16 units) with an ellipsis', async (t) => {
  t.equal(truncateContent('a'.repeat(200)), 'a'.repeat(200));
  t.equal(truncateContent('a'.repeat(201)), `${'a'.repeat(200)}…`);
  t.equal(truncateContent('😀'.repeat(201)), `${'😀'.repeat(200)}…`);
});
