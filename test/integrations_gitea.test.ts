// The Gitea integration: pushes, new branches, pull requests, issues, issue comments and releases
// with the exact topic and content of Zulip's zerver/webhooks/gitea (on gogs); payloads shaped as
// Gitea documents them (https://docs.gitea.com/usage/webhooks).
import t from 'tap';
import { gitea } from '../lib/integrations/gitea.js';
import { hook, hookFails, message, unsupported } from './integration_helpers.js';

const HOME = 'https://try.gitea.io/kostekIV/test';
const as = (event: string, params: Record<string, string> = {}) => ({ headers: { 'X-Gitea-Event': event }, params });
const giteaUser = (name: string) => ({ id: 21818, login: name, username: name, full_name: '', email: `${name}@example.com`, avatar_url: `https://try.gitea.io/user/avatar/${name}/-1` });
const repository = { id: 14576, owner: giteaUser('kostekIV'), name: 'test', full_name: 'kostekIV/test', private: false, html_url: HOME, default_branch: 'master' };
const base = (sender = 'kostekIV') => ({ secret: '', repository, sender: giteaUser(sender) });

t.test('a push: the commits; a commit without a username is named by the first word of its name; branches filter', async (t) => {
  const ids = ['2ec0c971d04723523aa20f2b378f8b419b47d4ec', '6cb1701c8b0114ad716f4cd49153076e7109cb85'];
  const commits = ids.map((id) => ({ id, message: 'commit\n', url: `${HOME}/commit/${id}`, author: { name: 'kostekIV', email: 'k@example.com', username: 'kostekIV' } }));
  const payload = { ref: 'refs/heads/d', before: '21138d2ca0ce18f8e037696fdbe1b3f0c211f630', after: ids[0], compare_url: `${HOME}/compare/21138d2ca0ce18f8e037696fdbe1b3f0c211f630...${ids[0]}`, commits, ...base() };
  t.same(message(gitea, payload, as('push')), {
    topic: 'test / d',
    content: `kostekIV [pushed](${HOME}/compare/21138d2ca0ce18f8e037696fdbe1b3f0c211f630...${ids[0]}) 2 commits to branch d.\n\n* commit ([2ec0c971d04](${HOME}/commit/${ids[0]}))\n* commit ([6cb1701c8b0](${HOME}/commit/${ids[1]}))`,
  });
  const anonymous = { ...payload, commits: [{ ...commits[0], author: { name: 'Jane Q. Public', email: 'j@example.com', username: '' } }] };
  t.match(message(gitea, anonymous, as('push')).content, /Commits by Jane \(1\)\./);
  t.equal(hook(gitea, payload, as('push', { branches: 'd,master' })).length, 1);
  t.same(hook(gitea, payload, as('push', { branches: 'changes,development' })), []);
});

t.test('a new branch', async (t) => {
  t.same(message(gitea, { sha: '01efc1fe09d4fba25397a386a6c623fd12eadd79', ref: 'test-branch', ref_type: 'branch', ...base() }, as('create')), {
    topic: 'test / test-branch',
    content: `kostekIV created [test-branch](${HOME}/src/test-branch) branch.`,
  });
});

const pr = (number: number, id: number, title: string, extra: Record<string, unknown> = {}) => ({
  id,
  number,
  title,
  body: '',
  html_url: `${HOME}/pulls/${number}`,
  user: giteaUser('kostekIV'),
  assignee: null,
  merged: false,
  merged_by: null,
  head: { ref: 'd', label: 'd' },
  base: { ref: 'master', label: 'master' },
  ...extra,
});

t.test("pull requests: opened, edited, reopened, closed (by the sender), merged (by who merged), assigned; the topic carries the pull request's id", async (t) => {
  const opened = { action: 'opened', number: 4, pull_request: pr(4, 1905, 'New pr', { head: { ref: 'test-branch' } }), ...base() };
  t.same(message(gitea, opened, as('pull_request')), { topic: 'test / PR #1905 New pr', content: `kostekIV opened [PR #4](${HOME}/pulls/4) from \`test-branch\` to \`master\`.` });
  t.same(message(gitea, opened, as('pull_request', { topic: 'notifications' })).content, `kostekIV opened [PR #4 New pr](${HOME}/pulls/4) from \`test-branch\` to \`master\`.`);
  t.same(message(gitea, { action: 'edited', pull_request: pr(5, 1906, 'test 2'), ...base() }, as('pull_request')), { topic: 'test / PR #1906 test 2', content: `kostekIV edited [PR #5](${HOME}/pulls/5).` });
  t.same(message(gitea, { action: 'reopened', pull_request: pr(5, 1906, 'test 2'), ...base() }, as('pull_request')).content, `kostekIV reopened [PR #5](${HOME}/pulls/5) from \`d\` to \`master\`.`);
  t.same(message(gitea, { action: 'closed', pull_request: pr(1, 126085, 'PR closed', { head: { ref: 'main' }, base: { ref: 'main' } }), ...base('Aneesh-Hegde') }, as('pull_request')).content,
    `Aneesh-Hegde closed [PR #1](${HOME}/pulls/1) from \`main\` to \`main\`.`);
  const merged = { action: 'closed', pull_request: pr(4, 1905, 'New pr', { merged: true, merged_by: giteaUser('octo') }), ...base() };
  t.same(message(gitea, merged, as('pull_request')).content, `octo merged [PR #4](${HOME}/pulls/4) from \`d\` to \`master\`.`);
  const assigned = { action: 'assigned', pull_request: pr(5, 1906, 'test 2', { assignee: giteaUser('kostekIV') }), ...base() };
  t.same(message(gitea, assigned, as('pull_request')).content, `kostekIV assigned kostekIV to [PR #5](${HOME}/pulls/5) from \`d\` to \`master\` (assigned to kostekIV).`);
});

const issue = (title: string, assignee: string | null) => ({ id: 8184, number: 3, title, body: 'Test body', user: giteaUser('kostekIV'), assignee: assignee ? giteaUser(assignee) : null, state: 'open' });

t.test('issues opened, edited, closed, reopened, assigned', async (t) => {
  t.same(message(gitea, { action: 'opened', number: 3, issue: issue('Test issue', null), ...base() }, as('issues')), {
    topic: 'test / issue #3 Test issue',
    content: `kostekIV opened [issue #3](${HOME}/issues/3):\n\n~~~ quote\nTest body\n~~~`,
  });
  for (const action of ['edited', 'closed', 'reopened']) {
    t.same(message(gitea, { action, number: 3, issue: issue('Test issue 2', 'kostekIV'), ...base() }, as('issues')), {
      topic: 'test / issue #3 Test issue 2',
      content: `kostekIV ${action} [issue #3](${HOME}/issues/3) (assigned to kostekIV):\n\n~~~ quote\nTest body\n~~~`,
    });
  }
  t.same(message(gitea, { action: 'assigned', number: 3, issue: issue('Test issue', 'kostekIV'), ...base() }, as('issues')).content,
    `kostekIV assigned kostekIV to [issue #3](${HOME}/issues/3) (assigned to kostekIV):\n\n~~~ quote\nTest body\n~~~`);
  t.same(message(gitea, { action: 'opened', number: 3, issue: issue('Test issue', null), ...base() }, as('issues', { topic: 'notifications' })).content,
    `kostekIV opened [issue #3 Test issue](${HOME}/issues/3):\n\n~~~ quote\nTest body\n~~~`);
});

t.test('issue comments, new and edited (a comment on a pull request shows as one on its issue)', async (t) => {
  const reply = (action: string, url: string, body: string, item = issue('Test issue', null)) => ({ action, issue: item, comment: { id: 24400, html_url: url, body, user: giteaUser('kostekIV') }, ...base() });
  t.same(message(gitea, reply('created', `${HOME}/issues/3#issuecomment-24400`, 'test comment'), as('issue_comment')), {
    topic: 'test / issue #3 Test issue',
    content: `kostekIV [commented](${HOME}/issues/3#issuecomment-24400) on [issue #3](${HOME}/issues/3):\n\n~~~ quote\ntest comment\n~~~`,
  });
  t.same(message(gitea, reply('edited', `${HOME}/issues/3#issuecomment-24400`, 'edit test comment', issue('Test issue 2', null)), as('issue_comment')), {
    topic: 'test / issue #3 Test issue 2',
    content: `kostekIV edited a [comment](${HOME}/issues/3#issuecomment-24400) on [issue #3](${HOME}/issues/3):\n\n~~~ quote\nedit test comment\n~~~`,
  });
  const onPr = reply('created', `${HOME}/pulls/1/files#issuecomment-24399`, 'test comment', { ...issue('dummy', null), number: 1 });
  t.same(message(gitea, onPr, as('issue_comment')), {
    topic: 'test / issue #1 dummy',
    content: `kostekIV [commented](${HOME}/pulls/1/files#issuecomment-24399) on [issue #1](${HOME}/issues/1):\n\n~~~ quote\ntest comment\n~~~`,
  });
});

t.test('releases; other events are unsupported; the event header is required', async (t) => {
  const release = { action: 'published', release: { tag_name: 'v1.4', name: 'First release', author: giteaUser('kostekIV') }, ...base() };
  t.same(message(gitea, release, as('release')), { topic: 'test / v1.4 First release', content: `kostekIV published release [First release](${HOME}) for tag v1.4.` });
  hookFails(t, gitea, base(), as('fork'), unsupported('Gitea', 'fork'));
  hookFails(t, gitea, base(), {}, { status: 400, code: 'MISSING_HTTP_EVENT_HEADER', msg: "Missing the HTTP event header 'X-Gitea-Event'", extra: { header: 'X-Gitea-Event' } });
  t.equal(hook(gitea, release, as('release'))[0]!.eventType, 'release');
  t.same(hook(gitea, release, as('release', { exclude_events: '["release"]' })), []);
});
