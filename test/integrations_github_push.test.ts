// The GitHub integration's pushes (commits, tags, branches), the `branches` filter and
// ignore_private_repositories: each message's exact topic and content, as Zulip's
// zerver/webhooks/github writes them for the same payload.
import t from 'tap';
import { github } from '../lib/integrations/github.js';
import { commit, push, repository, user } from './github_payloads.js';
import { hook, hookFails, malformed, message } from './integration_helpers.js';

const PUSH = { headers: { 'X-GitHub-Event': 'push' } };
const README = commit('baxterthehacker/public-repo', '0d1a26e67d8f5eaf1f6ba5c57fc3c7d91ac0fd1c', 'Update README.md', { name: 'baxterthehacker', username: 'baxterthehacker' });
const README_LINE = '* Update README.md ([0d1a26e67d8](https://github.com/baxterthehacker/public-repo/commit/0d1a26e67d8f5eaf1f6ba5c57fc3c7d91ac0fd1c))';
const COMPARE = 'https://github.com/baxterthehacker/public-repo/compare/9049f1265b7d...0d1a26e67d8f';
const byAuthor = (name: string) => ({ ...README, author: { name, email: `${name}@example.com`, username: name } });

t.test('a push of one commit by the pusher: the commit, no "Commits by"', async (t) => {
  const payload = push('baxterthehacker/public-repo', 'baxterthehacker', { compare: COMPARE, commits: [README] });
  t.same(message(github, payload, PUSH), {
    topic: 'public-repo / changes',
    content: `baxterthehacker [pushed](${COMPARE}) 1 commit to branch changes.\n\n${README_LINE}`,
  });
  t.equal(hook(github, payload, PUSH)[0]!.eventType, 'push_commits', 'the event type only_events matches');
});

t.test("a commit author without a GitHub username is named by the commit's name", async (t) => {
  const sha = '2e8cf535fb38a3dab2476cdf856efda904ad4c94';
  const payload = push('eeshangarg/public-repo', 'eeshangarg', {
    compare: 'https://github.com/eeshangarg/public-repo/compare/0383613da871...2e8cf535fb38',
    commits: [commit('eeshangarg/public-repo', sha, 'Update the README\n\nWith more words.', { name: 'John Snow' })],
  });
  t.same(message(github, payload, PUSH), {
    topic: 'public-repo / changes',
    content: `eeshangarg [pushed](https://github.com/eeshangarg/public-repo/compare/0383613da871...2e8cf535fb38) 1 commit to branch changes. Commits by John Snow (1).\n\n* Update the README ([2e8cf535fb3](https://github.com/eeshangarg/public-repo/commit/${sha}))`,
  });
});

t.test('several committers are counted, most commits first; past three the rest are "others"', async (t) => {
  const six = ['Tomasz', 'Ben', 'Tomasz', 'baxterthehacker', 'Ben', 'Tomasz'].map(byAuthor);
  t.same(message(github, push('baxterthehacker/public-repo', 'baxterthehacker', { compare: COMPARE, commits: six }), PUSH).content,
    `baxterthehacker [pushed](${COMPARE}) 6 commits to branch changes. Commits by Tomasz (3), Ben (2) and baxterthehacker (1).\n\n${`${README_LINE}\n`.repeat(5)}${README_LINE}`);
  const ten = ['Tomasz', 'Tomasz', 'Tomasz', 'Tomasz', 'Ben', 'Ben', 'Ben', 'James', 'James', 'baxterthehacker'].map(byAuthor);
  t.same(message(github, push('baxterthehacker/public-repo', 'baxterthehacker', { compare: COMPARE, commits: ten }), PUSH).content,
    `baxterthehacker [pushed](${COMPARE}) 10 commits to branch changes. Commits by Tomasz (4), Ben (3), James (2) and others (1).\n\n${`${README_LINE}\n`.repeat(9)}${README_LINE}`);
  const tie = ['zed', 'amy'].map(byAuthor);
  t.match(message(github, push('baxterthehacker/public-repo', 'baxterthehacker', { compare: COMPARE, commits: tie }), PUSH).content, /Commits by amy \(1\) and zed \(1\)\./, 'ties by name');
});

t.test('a push of 50 commits lists 20 and counts the rest', async (t) => {
  const payload = push('baxterthehacker/public-repo', 'baxterthehacker', { compare: COMPARE, commits: Array.from({ length: 50 }, () => README) });
  t.same(message(github, payload, PUSH).content, `baxterthehacker [pushed](${COMPARE}) 50 commits to branch changes.\n\n${`${README_LINE}\n`.repeat(20)}[and 30 more commit(s)]`);
});

t.test('force pushes, deleted branches and branches pushed without commits', async (t) => {
  const sha = '971d76ca309446a9c20381f6271cea8a59b4e40a';
  const forced = push('sbansal1999/zulip', 'sbansal1999', {
    ref: 'refs/heads/temp',
    forced: true,
    compare: 'https://github.com/sbansal1999/zulip/compare/b6de8891fc10...971d76ca3094',
    commits: [commit('sbansal1999/zulip', sha, 'log: Add important.txt which is useful for logging errors.', { name: 'Satyam', username: 'sbansal1999' })],
  });
  t.same(message(github, forced, PUSH), {
    topic: 'zulip / temp',
    content: `sbansal1999 [force pushed](https://github.com/sbansal1999/zulip/compare/b6de8891fc10...971d76ca3094) 1 commit to branch temp.\n\n* log: Add important.txt which is useful for logging errors. ([971d76ca309](https://github.com/sbansal1999/zulip/commit/${sha}))`,
  });
  const removed = push('sbansal1999/zulip', 'sbansal1999', { ref: 'refs/heads/temp', forced: true, compare: 'https://github.com/sbansal1999/zulip/compare/2084a91af9ca...9a8749ea8fe7' });
  t.same(message(github, removed, PUSH).content, 'sbansal1999 [force pushed](https://github.com/sbansal1999/zulip/compare/2084a91af9ca...9a8749ea8fe7) the branch temp.');
  const deleted = push('eeshangarg/public-repo', 'eeshangarg', { ref: 'refs/heads/feature', deleted: true, compare: 'https://github.com/eeshangarg/public-repo/compare/2e8cf535fb38...000000000000' });
  t.same(message(github, deleted, PUSH), {
    topic: 'public-repo / feature',
    content: 'eeshangarg [deleted](https://github.com/eeshangarg/public-repo/compare/2e8cf535fb38...000000000000) the branch feature.',
  });
  const local = push('eeshangarg/public-repo', 'eeshangarg', { ref: 'refs/heads/feature', created: true, compare: 'https://github.com/eeshangarg/public-repo/compare/feature' });
  t.same(message(github, local, PUSH).content, 'eeshangarg [pushed](https://github.com/eeshangarg/public-repo/compare/feature) the branch feature.');
});

t.test('tags: pushed and removed; a tag ending in punctuation gets no period', async (t) => {
  const tag = (ref: string, created: boolean) => ({ ...push('baxterthehacker/public-repo', 'baxterthehacker', { ref, created, deleted: !created, compare: COMPARE }) });
  t.same(message(github, tag('refs/tags/abc', true), PUSH), { topic: 'public-repo', content: 'baxterthehacker pushed tag abc.' });
  t.same(message(github, tag('refs/tags/v1.0', false), PUSH).content, 'baxterthehacker removed tag v1.0.');
  t.same(message(github, tag('refs/tags/v2!', true), PUSH).content, 'baxterthehacker pushed tag v2!');
  t.equal(hook(github, tag('refs/tags/abc', true), PUSH)[0]!.eventType, 'push_tags');
});

t.test('pushes to the merge queue post nothing', async (t) => {
  t.same(hook(github, push('baxterthehacker/public-repo', 'baxterthehacker', { ref: 'refs/heads/gh-readonly-queue/main/pr-1-abc', compare: COMPARE, commits: [README] }), PUSH), []);
});

t.test('branches: only pushes to the listed branches post (names trimmed); tags are not filtered', async (t) => {
  const payload = push('baxterthehacker/public-repo', 'baxterthehacker', { compare: COMPARE, commits: [README] });
  t.equal(hook(github, payload, { ...PUSH, params: { branches: 'master,changes' } }).length, 1);
  t.equal(hook(github, payload, { ...PUSH, params: { branches: ' main , changes ' } }).length, 1);
  t.same(hook(github, payload, { ...PUSH, params: { branches: 'master,development' } }), []);
  t.same(hook(github, payload, { ...PUSH, params: { branches: 'change' } }), [], 'whole names, not substrings');
  const tag = push('baxterthehacker/public-repo', 'baxterthehacker', { ref: 'refs/tags/abc', created: true, compare: COMPARE });
  t.equal(hook(github, tag, { ...PUSH, params: { branches: 'master' } }).length, 1);
});

t.test('ignore_private_repositories: events of private repositories post nothing when true', async (t) => {
  const secret = push('baxterthehacker/secret', 'baxterthehacker', { compare: COMPARE, commits: [README], private: true });
  t.same(hook(github, secret, { ...PUSH, params: { ignore_private_repositories: 'true' } }), []);
  t.equal(hook(github, secret, { ...PUSH, params: { ignore_private_repositories: 'false' } }).length, 1);
  t.equal(hook(github, secret, PUSH).length, 1, 'by default they post');
  const open = push('baxterthehacker/public-repo', 'baxterthehacker', { compare: COMPARE, commits: [README] });
  t.equal(hook(github, open, { ...PUSH, params: { ignore_private_repositories: 'true' } }).length, 1);
  hookFails(t, github, open, { ...PUSH, params: { ignore_private_repositories: 'yes' } }, malformed('ignore_private_repositories is not valid JSON'));
  hookFails(t, github, open, { ...PUSH, params: { ignore_private_repositories: '1' } }, malformed('ignore_private_repositories is not a boolean'));
  const { private: _, ...withoutPrivate } = repository('baxterthehacker/public-repo');
  hookFails(t, github, { ...open, repository: withoutPrivate }, PUSH, malformed("payload['repository']['private'] is missing"));
});

t.test('malformed push payloads: the path of the field that is missing or of the wrong type', async (t) => {
  const payload = push('baxterthehacker/public-repo', 'baxterthehacker', { compare: COMPARE, commits: [README] });
  const { ref: _, ...withoutRef } = payload;
  hookFails(t, github, withoutRef, PUSH, malformed("payload['ref'] is missing"));
  hookFails(t, github, { ...payload, forced: 'no' }, PUSH, malformed("payload['forced'] is not a boolean"));
  hookFails(t, github, { ...payload, commits: [{ ...README, message: 5 }] }, PUSH, malformed("payload['commits'][0]['message'] is not a string"));
  hookFails(t, github, { ...payload, commits: {} }, PUSH, malformed("payload['commits'] is not a list"));
  hookFails(t, github, { ...payload, sender: 'baxter' }, PUSH, malformed("payload['sender'] is not a dict"));
  hookFails(t, github, [1, 2], PUSH, malformed('payload is not a dict'));
  hookFails(t, github, null, { ...PUSH, raw: '{"ref": ' }, { status: 400, code: 'INVALID_JSON', msg: 'Malformed JSON' });
  hookFails(t, github, null, { ...PUSH, raw: '' }, { status: 400, code: 'INVALID_JSON', msg: 'Malformed JSON' });
  hookFails(t, github, null, { ...PUSH, raw: `${'['.repeat(200)}${']'.repeat(200)}` }, malformed('payload is nested too deeply (limit: 100 levels)'));
});

t.test('the sender is named by their login', async (t) => {
  const payload = { ...push('baxterthehacker/public-repo', 'baxterthehacker', { compare: COMPARE, commits: [README] }), sender: user('octocat') };
  t.match(message(github, payload, PUSH).content, /^octocat \[pushed\]/);
});
