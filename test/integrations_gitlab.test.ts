// The GitLab integration: each event (pushes, tags, issues, notes, merge requests, wiki pages, jobs,
// pipelines, releases, feature flags, access tokens, deployments, system hooks) with the exact topic
// and content Zulip's zerver/webhooks/gitlab writes; payloads shaped as GitLab documents them
// (https://docs.gitlab.com/user/project/integrations/webhook_events/).
import t from 'tap';
import { gitlab } from '../lib/integrations/gitlab.js';
import { hook, hookFails, message, unsupported } from './integration_helpers.js';

const WEB = 'https://gitlab.com/tomaszkolek0/my-awesome-project';
const project = (name = 'my-awesome-project', webUrl = WEB) => ({ id: 1, name, web_url: webUrl, path_with_namespace: 'tomaszkolek0/my-awesome-project' });
const person = (name: string, username = name.toLowerCase().replace(/\s/g, '')) => ({ id: 1, name, username, avatar_url: 'https://gitlab.com/uploads/user/avatar/1/index.jpg' });
const as = (header: string, params: Record<string, string> = {}) => ({ headers: { 'X-GitLab-Event': header }, params });
const gitCommit = (id: string, message: string, author = 'Tomasz Kolek') => ({ id, message, title: message, timestamp: '2016-09-26T12:51:01+02:00', url: `${WEB}/commit/${id}`, author: { name: author, email: 'tomasz@example.com' } });
const B = gitCommit('66abd2da28809ffa128ed0447965cf11d7f863a7', 'b');
const C = gitCommit('eb6ae1e591e0819dc5bf187c6bfe18ec065a80e9', 'c\n\nwith a longer message');
const COMPARE = `${WEB}/-/compare/5fcdd5551fc3085df79bece2c32b1400802ac407...eb6ae1e591e0819dc5bf187c6bfe18ec065a80e9`;
const LINES = `* b ([66abd2da288](${B.url}))\n* c ([eb6ae1e591e](${C.url}))`;
const pushPayload = (commits: unknown[], extra: Record<string, unknown> = {}) => ({
  object_kind: 'push',
  before: '5fcdd5551fc3085df79bece2c32b1400802ac407',
  after: 'eb6ae1e591e0819dc5bf187c6bfe18ec065a80e9',
  ref: 'refs/heads/tomek',
  checkout_sha: 'eb6ae1e591e0819dc5bf187c6bfe18ec065a80e9',
  user_name: 'Tomasz Kolek',
  user_username: 'tomaszkolek0',
  project: project(),
  commits,
  total_commits_count: commits.length,
  repository: { name: 'my-awesome-project', homepage: WEB },
  ...extra,
});

t.test('pushes: commits, committers, the custom topic with the project named, branches, deleted and new branches', async (t) => {
  t.same(message(gitlab, pushPayload([B, C]), as('Push Hook')), { topic: 'my-awesome-project / tomek', content: `Tomasz Kolek [pushed](${COMPARE}) 2 commits to branch tomek.\n\n${LINES}` });
  t.same(message(gitlab, pushPayload([B, C]), as('Push Hook', { topic: 'Specific topic' })), {
    topic: 'Specific topic',
    content: `[[my-awesome-project](${WEB})] Tomasz Kolek [pushed](${COMPARE}) 2 commits to branch tomek.\n\n${LINES}`,
  });
  t.same(message(gitlab, pushPayload([{ ...B, author: { name: 'Ben', email: 'ben@example.com' } }, C]), as('Push Hook')).content,
    `Tomasz Kolek [pushed](${COMPARE}) 2 commits to branch tomek. Commits by Ben (1) and Tomasz Kolek (1).\n\n${LINES}`);
  t.same(message(gitlab, pushPayload(Array.from({ length: 50 }, () => B)), as('Push Hook')).content,
    `Tomasz Kolek [pushed](${COMPARE}) 50 commits to branch tomek.\n\n${`* b ([66abd2da288](${B.url}))\n`.repeat(20)}[and 30 more commit(s)]`);
  t.equal(hook(gitlab, pushPayload([B]), as('Push Hook', { branches: 'master,tomek' })).length, 1);
  t.same(hook(gitlab, pushPayload([B]), as('Push Hook', { branches: 'master,development' })), []);
  t.same(message(gitlab, pushPayload([], { after: '0000000000000000000000000000000000000000' }), as('Push Hook')).content, 'Tomasz Kolek deleted branch tomek.');
  const created = pushPayload([], { before: '0000000000000000000000000000000000000000', after: '68d7a5528cf423dfaac37dd62a56ac9cc8a884e3', ref: 'refs/heads/changes', user_name: 'Eeshan Garg' });
  t.same(message(gitlab, created, as('Push Hook')), {
    topic: 'my-awesome-project / changes',
    content: `Eeshan Garg [pushed](${WEB}/-/compare/0000000000000000000000000000000000000000...68d7a5528cf423dfaac37dd62a56ac9cc8a884e3) the branch changes.`,
  });
  t.equal(hook(gitlab, pushPayload([B]), as('Push Hook'))[0]!.eventType, 'Push Hook');
});

t.test('tags pushed and removed', async (t) => {
  const tag = (checkout: string | null) => pushPayload([], { object_kind: 'tag_push', ref: 'refs/tags/xyz', checkout_sha: checkout });
  t.same(message(gitlab, tag('82b3d5ae55f7080f1e6022629cdb57bfae7cccc7'), as('Tag Push Hook')), { topic: 'my-awesome-project', content: 'Tomasz Kolek pushed tag xyz.' });
  t.same(message(gitlab, tag(null), as('Tag Push Hook')).content, 'Tomasz Kolek removed tag xyz.');
});

const issueHook = (attributes: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  object_kind: 'issue',
  user: person('Tomasz Kolek', 'tomaszkolek0'),
  project: project(),
  object_attributes: { id: 1, iid: 1, title: 'Issue title', description: 'Issue description', url: `${WEB}/issues/1`, action: 'open', state: 'opened', ...attributes },
  repository: { name: 'my-awesome-project', homepage: WEB },
  ...extra,
});
const ISSUE = `${WEB}/issues/1`;

t.test('issues created: the description (hidden comments left out), assignees, confidential issues', async (t) => {
  t.same(message(gitlab, issueHook({}), as('Issue Hook')), { topic: 'my-awesome-project / issue #1 Issue title', content: `Tomasz Kolek created [issue #1](${ISSUE}):\n\n~~~ quote\nIssue description\n~~~` });
  t.same(message(gitlab, issueHook({}), as('Issue Hook', { topic: 'notifications' })).content,
    `[[my-awesome-project](${WEB})] Tomasz Kolek created [issue #1 Issue title](${ISSUE}):\n\n~~~ quote\nIssue description\n~~~`);
  t.same(message(gitlab, issueHook({}, { assignees: [person('Tomasz Kolek')] }), as('Issue Hook')).content,
    `Tomasz Kolek created [issue #1](${ISSUE}) (assigned to Tomasz Kolek):\n\n~~~ quote\nIssue description\n~~~`);
  t.match(message(gitlab, issueHook({}, { assignees: [person('Adam Birds'), person('Eeshan Garg')] }), as('Issue Hook')).content, /\(assigned to Adam Birds and Eeshan Garg\):/);
  t.match(message(gitlab, issueHook({}, { assignees: [person('Adam Birds'), person('Eeshan Garg'), person('Tim Abbott')] }), as('Issue Hook')).content, /\(assigned to Adam Birds, Eeshan Garg and Tim Abbott\):/);
  t.match(message(gitlab, issueHook({}, { assignee: person('Joe Bloggs') }), as('Issue Hook')).content, /\(assigned to Joe Bloggs\):/, 'the older single assignee');
  const hidden = issueHook({ description: 'This description actually has a hidden comment in it!<!-- This is a hidden comment.\nOn two lines -->\n' });
  t.same(message(gitlab, hidden, as('Issue Hook')).content, `Tomasz Kolek created [issue #1](${ISSUE}):\n\n~~~ quote\nThis description actually has a hidden comment in it!\n~~~`);
  t.same(message(gitlab, issueHook({ description: null }), as('Issue Hook')).content, `Tomasz Kolek created [issue #1](${ISSUE}).`);
  t.same(message(gitlab, issueHook({ confidential: true }), as('Confidential Issue Hook')).content, `Tomasz Kolek created [issue #1](${ISSUE}):\n\n~~~ quote\nIssue description\n~~~`);
  const { action: _, ...noAction } = issueHook({}).object_attributes;
  t.equal(hook(gitlab, { ...issueHook({}), object_attributes: noAction }, as('Issue Hook'))[0]!.eventType, 'Issue Hook open', 'no action is "open"');
});

t.test('issues updated, closed and reopened', async (t) => {
  for (const [action, word] of [['update', 'updated'], ['close', 'closed'], ['reopen', 'reopened']]) {
    t.same(message(gitlab, issueHook({ action, title: 'Issue title_new' }), as('Issue Hook')), { topic: 'my-awesome-project / issue #1 Issue title_new', content: `Tomasz Kolek ${word} [issue #1](${ISSUE}).` });
    t.same(message(gitlab, issueHook({ action }), as('Confidential Issue Hook')).content, `Tomasz Kolek ${word} [issue #1](${ISSUE}).`);
  }
  t.same(message(gitlab, issueHook({ action: 'update', title: 'Issue title_new' }), as('Issue Hook', { topic: 'notifications' })).content,
    `[[my-awesome-project](${WEB})] Tomasz Kolek updated [issue #1 Issue title_new](${ISSUE}).`);
  hookFails(t, gitlab, issueHook({ action: 'move' }), as('Issue Hook'), unsupported('GitLab', 'Issue Hook move'));
});

const SB = 'https://gitlab.com/sbansal1999/testing-zulip-gitlab-integration';
const note = (type: string, attributes: Record<string, unknown>, extra: Record<string, unknown>) => ({
  object_kind: 'note',
  user: person('Satyam Bansal', 'sbansal1999'),
  project: project('testing-zulip-gitlab-integration', SB),
  object_attributes: { id: 1406279810, noteable_type: type, ...attributes },
  repository: { name: 'testing-zulip-gitlab-integration', homepage: SB },
  ...extra,
});

t.test('notes on commits, merge requests (with or without its title in the topic), issues, snippets and designs', async (t) => {
  const sha = '82689ddf00fd7bdadb5c2afb3b94bd555edc9d01';
  const onCommit = note('Commit', { note: 'Wow what a beautiful commit.', url: `${SB}/-/commit/${sha}#note_1406241063` }, { commit: { id: sha, url: `${SB}/-/commit/${sha}`, message: 'x' } });
  t.same(message(gitlab, onCommit, as('Note Hook')), {
    topic: 'testing-zulip-gitlab-integration',
    content: `Satyam Bansal [commented](${SB}/-/commit/${sha}#note_1406241063) on [82689ddf00f](${SB}/-/commit/${sha}):\n~~~ quote\nWow what a beautiful commit.\n~~~`,
  });
  const text = 'I am not sure if this new feature is even required or not.';
  const onMr = note('MergeRequest', { note: text, url: `${SB}/-/merge_requests/1#note_1406328457` }, { merge_request: { iid: 1, title: 'add new-feature', url: `${SB}/-/merge_requests/1` } });
  const mrContent = `Satyam Bansal [commented](${SB}/-/merge_requests/1#note_1406328457) on [MR #1](${SB}/-/merge_requests/1):\n\n~~~ quote\n${text}\n~~~`;
  t.same(message(gitlab, onMr, as('Note Hook')), { topic: 'testing-zulip-gitlab-integration / MR #1 add new-feature', content: mrContent });
  t.same(message(gitlab, onMr, as('Note Hook', { use_merge_request_title: 'false' })), { topic: 'testing-zulip-gitlab-integration / MR #1', content: mrContent });
  t.same(message(gitlab, onMr, as('Note Hook', { topic: 'notifications' })).content,
    `[[testing-zulip-gitlab-integration](${SB})] Satyam Bansal [commented](${SB}/-/merge_requests/1#note_1406328457) on [MR #1 add new-feature](${SB}/-/merge_requests/1):\n\n~~~ quote\n${text}\n~~~`);
  const onIssue = note('Issue', { note: 'This is again a random comment.', url: `${SB}/-/issues/1#note_1406279810` }, { issue: { iid: 1, title: 'Add more lines', url: `${SB}/-/issues/1` } });
  const issueContent = `Satyam Bansal [commented](${SB}/-/issues/1#note_1406279810) on [issue #1](${SB}/-/issues/1):\n\n~~~ quote\nThis is again a random comment.\n~~~`;
  t.same(message(gitlab, onIssue, as('Note Hook')), { topic: 'testing-zulip-gitlab-integration / issue #1 Add more lines', content: issueContent });
  t.same(message(gitlab, onIssue, as('Confidential Note Hook')).content, issueContent);
  const snippet = { id: 2547713, title: 'a very new new feature', url: `${SB}/-/snippets/2547713` };
  const onSnippet = note('Snippet', { note: 'some comment', url: `${SB}/-/snippets/2547713#note_1424268837` }, { snippet });
  t.same(message(gitlab, onSnippet, as('Note Hook')), {
    topic: 'testing-zulip-gitlab-integration / snippet #2547713 a ver...',
    content: `Satyam Bansal [commented](${SB}/-/snippets/2547713#note_1424268837) on [snippet #2547713](${SB}/-/snippets/2547713):\n\n~~~ quote\nsome comment\n~~~`,
  });
  const { url: _, ...oldSnippet } = { ...snippet, id: 2, title: 'test' };
  t.same(message(gitlab, { ...onSnippet, snippet: oldSnippet }, as('Note Hook')).content,
    `Satyam Bansal [commented](${SB}/-/snippets/2547713#note_1424268837) on [snippet #2](${SB}/-/snippets/2):\n\n~~~ quote\nsome comment\n~~~`, 'before GitLab 16.1 snippets had no url');
  const design = note('DesignManagement::Design', { id: 2418963, note: 'Nice design', position: { new_path: 'designs/issue-1/Screenshot_20250302.png' } }, {});
  t.same(message(gitlab, design, as('Note Hook')), {
    topic: 'testing-zulip-gitlab-integration / design Screenshot_2025...',
    content: `Satyam Bansal [commented](${SB}/-/issues/1/designs/Screenshot_20250302.png#note_2418963) on design [Screenshot_20250302.png](${SB}/-/issues/1/designs/Screenshot_20250302.png):\n\n~~~ quote\nNice design\n~~~`,
  });
  hookFails(t, gitlab, note('Epic', { note: 'x', url: 'x' }, {}), as('Note Hook'), unsupported('GitLab', 'Note Hook Epic'));
});

const mr = (attributes: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  object_kind: 'merge_request',
  user: person('Tomasz Kolek', 'tomaszkolek0'),
  project: project(),
  object_attributes: { iid: 2, title: 'NEW MR', url: `${WEB}/merge_requests/2`, source_branch: 'tomek', target_branch: 'master', description: 'description of merge request', action: 'open', ...attributes },
  ...extra,
});
const MR = `${WEB}/merge_requests/2`;

t.test('merge requests opened, with assignees, updated, with new commits, merged', async (t) => {
  t.same(message(gitlab, mr({}), as('Merge Request Hook')), {
    topic: 'my-awesome-project / MR #2 NEW MR',
    content: `Tomasz Kolek created [MR #2](${MR}) from \`tomek\` to \`master\`:\n\n~~~ quote\ndescription of merge request\n~~~`,
  });
  t.same(message(gitlab, mr({}), as('Merge Request Hook', { topic: 'notifications' })).content,
    `[[my-awesome-project](${WEB})] Tomasz Kolek created [MR #2 NEW MR](${MR}) from \`tomek\` to \`master\`:\n\n~~~ quote\ndescription of merge request\n~~~`);
  t.same(message(gitlab, mr({}, { assignees: [person('Tomasz Kolek')] }), as('Merge Request Hook')).content,
    `Tomasz Kolek created [MR #2](${MR}) from \`tomek\` to \`master\` (assigned to Tomasz Kolek):\n\n~~~ quote\ndescription of merge request\n~~~`);
  t.same(message(gitlab, mr({ action: 'update', description: 'updated desc' }, { assignees: [person('Tomasz Kolek')] }), as('Merge Request Hook')).content,
    `Tomasz Kolek updated [MR #2](${MR}) (assigned to Tomasz Kolek):\n\n~~~ quote\nupdated desc\n~~~`);
  t.same(message(gitlab, mr({ action: 'update', oldrev: '4b7b58d0ae1d9c1c7a8a2ad1d1e3a0d1f5c1b6c4' }), as('Merge Request Hook')).content, `Tomasz Kolek added commit(s) to [MR #2](${MR}).`);
  t.same(message(gitlab, mr({ action: 'merge' }), as('Merge Request Hook')).content, `Tomasz Kolek merged [MR #2](${MR}) from \`tomek\` to \`master\`.`);
});

t.test('merge requests closed, reopened, approved and unapproved; use_merge_request_title', async (t) => {
  t.same(message(gitlab, mr({ action: 'close' }), as('Merge Request Hook')), { topic: 'my-awesome-project / MR #2 NEW MR', content: `Tomasz Kolek closed [MR #2](${MR}).` });
  t.same(message(gitlab, mr({ action: 'close' }), as('Merge Request Hook', { use_merge_request_title: 'false' })).topic, 'my-awesome-project / MR #2');
  t.same(message(gitlab, mr({ action: 'close' }), as('Merge Request Hook', { topic: 'notifications' })).content, `[[my-awesome-project](${WEB})] Tomasz Kolek closed [MR #2 NEW MR](${MR}).`);
  const words: [string, string][] = [['reopen', 'reopened'], ['approved', 'approved'], ['unapproved', 'unapproved'], ['approval', 'added their approval for'], ['unapproval', 'removed their approval for']];
  for (const [action, word] of words) t.same(message(gitlab, mr({ action }), as('Merge Request Hook')).content, `Tomasz Kolek ${word} [MR #2](${MR}).`, action);
  hookFails(t, gitlab, mr({ action: 'open' }), as('Merge Request Hook', { use_merge_request_title: 'no' }), { status: 400, code: 'BAD_REQUEST', msg: 'use_merge_request_title is not valid JSON' });
});

t.test('wiki pages, jobs (and the older build hook), pipelines with their jobs and artifacts, test hooks', async (t) => {
  const wiki = (action: string) => ({ object_kind: 'wiki_page', user: person('Tomasz Kolek'), project: project(), object_attributes: { title: 'how to', url: `${WEB}/wikis/how-to`, action } });
  t.same(message(gitlab, wiki('create'), as('Wiki Page Hook')), { topic: 'my-awesome-project', content: `Tomasz Kolek created [wiki page "how to"](${WEB}/wikis/how-to).` });
  t.same(message(gitlab, wiki('update'), as('Wiki Page Hook')).content, `Tomasz Kolek updated [wiki page "how to"](${WEB}/wikis/how-to).`);
  const job = (status: string) => ({ object_kind: 'build', ref: 'master', build_name: 'job_name', build_stage: 'test', build_status: status, repository: { name: 'my-awesome-project', homepage: WEB } });
  for (const header of ['Job Hook', 'Build Hook']) {
    t.same(message(gitlab, job('created'), as(header)), { topic: 'my-awesome-project / master', content: 'Build job_name from test stage was created.' });
    t.same(message(gitlab, job('running'), as(header)).content, 'Build job_name from test stage started.');
    t.same(message(gitlab, job('success'), as(header)).content, 'Build job_name from test stage changed status to success.');
  }
  t.same(message(gitlab, job('created'), as('Job Hook', { topic: 'provided topic' })).content, `[[my-awesome-project](${WEB})] Build job_name from test stage was created.`, 'jobs have no project: the repository names it');
  const PW = 'https://gitlab.com/TomaszKolek/my-awesome-project';
  const pipeline = (status: string, builds: unknown[]) => ({ object_kind: 'pipeline', object_attributes: { id: 4414206, ref: 'master', status }, project: project('my-awesome-project', PW), builds });
  const jobs = [{ id: 4541113, name: 'job_name2', status: 'success' }, { id: 4541112, name: 'job_name', status: 'success', artifacts_file: { filename: 'artifacts.zip', size: 139 } }];
  t.same(message(gitlab, pipeline('success', jobs), as('Pipeline Hook')), {
    topic: 'my-awesome-project / master',
    content: `[Pipeline (4414206)](${PW}/-/pipelines/4414206) changed status to success with build(s):\n* [job_name2](${PW}/-/jobs/4541113) - success\n* [job_name](${PW}/-/jobs/4541112) - success\n  * built artifact: *artifacts.zip* [[Browse](${PW}/-/jobs/4541112/artifacts/browse)|[Download](${PW}/-/jobs/4541112/artifacts/download)].`,
  });
  t.same(message(gitlab, pipeline('pending', [{ id: 1, name: 'a', status: 'created', artifacts_file: { filename: null } }]), as('Pipeline Hook')).content,
    `[Pipeline (4414206)](${PW}/-/pipelines/4414206) was created with build(s):\n* [a](${PW}/-/jobs/1) - created.`);
  t.same(message(gitlab, pipeline('running', []), as('Pipeline Hook')).content, `[Pipeline (4414206)](${PW}/-/pipelines/4414206) started with build(s):\n.`);
  t.same(message(gitlab, { project: project('public-repo') }, as('Test Hook')), { topic: 'public-repo', content: 'Webhook for **public-repo** has been configured successfully! :tada:' });
});

t.test('system hooks: the event named by event_name or object_kind', async (t) => {
  t.same(message(gitlab, { ...pushPayload([B, C]), event_name: 'push' }, as('System Hook')).topic, 'my-awesome-project / tomek');
  t.same(message(gitlab, mr({}), as('System Hook')).content, `Tomasz Kolek created [MR #2](${MR}) from \`tomek\` to \`master\`:\n\n~~~ quote\ndescription of merge request\n~~~`);
  hookFails(t, gitlab, { event_name: 'project_create' }, as('System Hook'), unsupported('GitLab', 'Project Create Hook'));
});

t.test('releases, feature flags, access tokens about to expire, deployments', async (t) => {
  const release = (action: string, extra: Record<string, unknown> = {}) => ({ object_kind: 'release', action, name: 'v1.1', tag: 'v1.1', url: `${WEB}/-/releases/v1.1`, project: project(), ...extra });
  t.same(message(gitlab, release('create', { description: 'New features' }), as('Release Hook')), {
    topic: 'my-awesome-project',
    content: `Release [v1.1](${WEB}/-/releases/v1.1) for tag v1.1 was created.\n~~~ quote\nNew features\n~~~`,
  });
  t.same(message(gitlab, release('update'), as('Release Hook')).content, `Release [v1.1](${WEB}/-/releases/v1.1) for tag v1.1 was updated.`);
  t.same(message(gitlab, release('delete'), as('Release Hook')).content, 'Release v1.1 for tag v1.1 was deleted.');
  const flag = (active: boolean) => ({ object_kind: 'feature_flag', project: project(), user: person('Tomasz Kolek', 'tomaszkolek0'), object_attributes: { id: 6, name: 'test-feature-flag', active } });
  t.same(message(gitlab, flag(true), as('Feature Flag Hook')).content, `tomaszkolek0 activated the feature flag [test-feature-flag](${WEB}/-/feature_flags).`);
  t.same(message(gitlab, flag(false), as('Feature Flag Hook')).content, `tomaszkolek0 deactivated the feature flag [test-feature-flag](${WEB}/-/feature_flags).`);
  const token = { object_kind: 'access_token', object_attributes: { name: 'acd', expires_at: '2024-01-26' }, event_name: 'expiring_access_token' };
  t.same(message(gitlab, { ...token, project: project() }, as('Resource Access Token Hook')), {
    topic: 'my-awesome-project',
    content: `The access token [acd](${WEB}/-/settings/access_tokens) will expire on Jan 26, 2024.`,
  });
  t.same(message(gitlab, { ...token, group: { group_name: 'twitter', group_path: 'twitter' } }, as('Resource Access Token Hook')), {
    topic: 'twitter',
    content: 'The access token [acd](https://gitlab.com/groups/twitter/-/settings/access_tokens) will expire on Jan 26, 2024.',
  });
  const deployment = (status: string, deployableUrl = `${WEB}/-/jobs/1`) => ({
    object_kind: 'deployment', status, environment: 'production', project: project(), user: person('Tomasz Kolek'), user_url: 'https://gitlab.com/tomaszkolek0',
    deployable_url: deployableUrl, commit_url: `${WEB}/-/commit/61a5ea1a0e7e1a1e0f7c4b2a7b2ea1b8d3e3c1b4`, commit_title: 'Add a file',
  });
  t.same(message(gitlab, deployment('running'), as('Deployment Hook')), {
    topic: 'my-awesome-project / production',
    content: `[Tomasz Kolek](https://gitlab.com/tomaszkolek0) started a new [deployment](${WEB}/-/jobs/1):\n> [61a5ea1](${WEB}/-/commit/61a5ea1a0e7e1a1e0f7c4b2a7b2ea1b8d3e3c1b4) Add a file`,
  });
  t.same(message(gitlab, deployment('success'), as('Deployment Hook')).content, `The [deployment](${WEB}/-/jobs/1) was successful.`);
  t.same(message(gitlab, deployment('failed', ''), as('Deployment Hook')).content, 'The deployment failed.');
  t.same(message(gitlab, deployment('canceled'), as('Deployment Hook')).content, `The [deployment](${WEB}/-/jobs/1) was canceled.`);
});

t.test('unknown events are unsupported; the event header is required', async (t) => {
  hookFails(t, gitlab, { object_kind: 'emoji' }, as('Emoji Hook'), unsupported('GitLab', 'Emoji Hook'));
  hookFails(t, gitlab, pushPayload([B]), {}, { status: 400, code: 'MISSING_HTTP_EVENT_HEADER', msg: "Missing the HTTP event header 'X-GitLab-Event'", extra: { header: 'X-GitLab-Event' } });
});
