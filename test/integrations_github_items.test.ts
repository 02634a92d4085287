// The GitHub integration's pull requests (opened, updated, edited, assigned, closed, merged, review
// requests, reviews, locks, auto-merge), issues and their comments: each message's exact topic and
// content as Zulip writes them; with the `topic` parameter, the item's title is named instead.
import t from 'tap';
import { github } from '../lib/integrations/github.js';
import { comment, issue, issueEvent, pullRequest, pullRequestEvent, repository, user } from './github_payloads.js';
import { hook, hookFails, message, unsupported } from './integration_helpers.js';

const PR = { headers: { 'X-GitHub-Event': 'pull_request' } };
const CUSTOM = (headers: Record<string, string>) => ({ headers, params: { topic: 'notifications' } });
const REPO = 'baxterthehacker/public-repo';
const PR_URL = 'https://github.com/baxterthehacker/public-repo/pull/1';
const TOPIC_PR = 'public-repo / PR #1 Update the README with new information';
const pr1 = (extra: Partial<Parameters<typeof pullRequest>[2]> = {}) => pullRequest(REPO, 'baxterthehacker', { number: 1, title: 'Update the README with new information', ...extra });
const prEvent = (action: string, extra: Partial<Parameters<typeof pullRequest>[2]> = {}, more: Record<string, unknown> = {}) =>
  pullRequestEvent(action, REPO, 'baxterthehacker', pr1(extra), more);

t.test('pull request opened: branches and the description; with a custom topic, the title', async (t) => {
  const body = 'This is a pretty simple change that we need to pull into master.';
  t.same(message(github, prEvent('opened', { body, base: 'master' }), PR), {
    topic: TOPIC_PR,
    content: `baxterthehacker opened [PR #1](${PR_URL}) from \`baxterthehacker:changes\` to \`baxterthehacker:master\`:\n\n~~~ quote\n${body}\n~~~`,
  });
  t.same(message(github, prEvent('opened', { body, base: 'master' }), CUSTOM(PR.headers)), {
    topic: 'notifications',
    content: `baxterthehacker opened [PR #1 Update the README with new information](${PR_URL}) from \`baxterthehacker:changes\` to \`baxterthehacker:master\`:\n\n~~~ quote\n${body}\n~~~`,
  });
  t.same(hook(github, prEvent('opened'), PR)[0]!.eventType, 'opened_pull_request');
});

t.test('pull request opened with an assignee and no description; reopened names no branches', async (t) => {
  const payload = pullRequestEvent('opened', 'eeshangarg/Scheduler', 'eeshangarg', pullRequest('eeshangarg/Scheduler', 'eeshangarg', { number: 4, title: 'Improve README', head: 'improve-readme-2', base: 'master', body: null, assignee: 'eeshangarg' }));
  t.same(message(github, payload, PR), {
    topic: 'Scheduler / PR #4 Improve README',
    content: 'eeshangarg opened [PR #4](https://github.com/eeshangarg/Scheduler/pull/4) from `eeshangarg:improve-readme-2` to `eeshangarg:master` (assigned to eeshangarg).',
  });
  t.same(message(github, prEvent('reopened'), PR).content, `baxterthehacker reopened [PR #1](${PR_URL}).`);
});

t.test('pull request updated (synchronize) and edited; an edit of the description quotes it', async (t) => {
  t.same(message(github, prEvent('synchronize'), PR), { topic: TOPIC_PR, content: `baxterthehacker updated [PR #1](${PR_URL}).` });
  t.same(message(github, prEvent('synchronize', { body: 'A body that is not shown' }), PR).content, `baxterthehacker updated [PR #1](${PR_URL}).`);
  t.same(message(github, prEvent('edited', {}, { changes: { title: { from: 'Old' } } }), PR).content, `baxterthehacker edited [PR #1](${PR_URL}).`);
  const edited = pullRequestEvent('edited', 'cozyrohan/public-repo', 'cozyrohan', pullRequest('cozyrohan/public-repo', 'cozyrohan', { number: 1, title: 'Update the README with new information', body: 'PR EDITED' }), { changes: { body: { from: 'before' } } });
  t.same(message(github, edited, PR).content, 'cozyrohan edited [PR #1](https://github.com/cozyrohan/public-repo/pull/1):\n\n~~~ quote\nPR EDITED\n~~~');
  t.same(hook(github, prEvent('edited'), PR)[0]!.eventType, 'updated_pull_request');
});

t.test('pull request closed without merge, and merged', async (t) => {
  t.same(message(github, prEvent('closed'), PR), { topic: TOPIC_PR, content: `baxterthehacker closed without merge [PR #1](${PR_URL}).` });
  t.same(message(github, prEvent('closed'), CUSTOM(PR.headers)).content, `baxterthehacker closed without merge [PR #1 Update the README with new information](${PR_URL}).`);
  t.same(message(github, prEvent('closed', { merged: true }), PR).content, `baxterthehacker merged [PR #1](${PR_URL}).`);
});

t.test('pull request assigned and unassigned name whom', async (t) => {
  t.same(message(github, prEvent('assigned', {}, { assignee: user('baxterthehacker') }), PR), {
    topic: TOPIC_PR,
    content: `baxterthehacker assigned baxterthehacker to [PR #1](${PR_URL}).`,
  });
  t.same(message(github, prEvent('assigned', {}, { assignee: user('baxterthehacker') }), CUSTOM(PR.headers)).content,
    `baxterthehacker assigned baxterthehacker to [PR #1 Update the README with new information](${PR_URL}).`);
  const unassigned = pullRequestEvent('unassigned', 'zulip-test-org/helloworld', 'eeshangarg', pullRequest('zulip-test-org/helloworld', 'eeshangarg', { number: 1, title: 'Mention that Zulip rocks!' }), { assignee: user('showell') });
  t.same(message(github, unassigned, PR), {
    topic: 'helloworld / PR #1 Mention that Zulip rocks!',
    content: 'eeshangarg unassigned showell from [PR #1](https://github.com/zulip-test-org/helloworld/pull/1).',
  });
  t.same(message(github, unassigned, CUSTOM(PR.headers)).content, 'eeshangarg unassigned showell from [PR #1 Mention that Zulip rocks!](https://github.com/zulip-test-org/helloworld/pull/1)', 'a title ending in punctuation gets no period');
});

t.test('ready for review, review requested (a person or a team), locks and auto-merge', async (t) => {
  const ready = pullRequestEvent('ready_for_review', 'Hypro999/temp-test-github-webhook', 'Hypro999', pullRequest('Hypro999/temp-test-github-webhook', 'Hypro999', { number: 2, title: 'Test' }));
  t.same(message(github, ready, PR), {
    topic: 'temp-test-github-webhook / PR #2 Test',
    content: '**Hypro999** has marked [PR #2](https://github.com/Hypro999/temp-test-github-webhook/pull/2) as ready for review.',
  });
  const scheduler = pullRequest('eeshangarg/Scheduler', 'eeshangarg', { number: 1, title: 'This is just a test commit' });
  const requested = pullRequestEvent('review_requested', 'eeshangarg/Scheduler', 'eeshangarg', scheduler, { requested_reviewer: user('showell') });
  t.same(message(github, requested, PR), {
    topic: 'Scheduler / PR #1 This is just a test commit',
    content: '**eeshangarg** requested [showell](https://github.com/showell) for a review on [PR #1](https://github.com/eeshangarg/Scheduler/pull/1).',
  });
  t.same(message(github, requested, CUSTOM(PR.headers)).content,
    '**eeshangarg** requested [showell](https://github.com/showell) for a review on [PR #1 This is just a test commit](https://github.com/eeshangarg/Scheduler/pull/1).');
  const team = { name: 'authority', html_url: 'https://github.com/orgs/test-org965/teams/authority' };
  const teamRequest = pullRequestEvent('review_requested', 'test-org965/webhook-test', 'singhsourabh', pullRequest('test-org965/webhook-test', 'singhsourabh', { number: 4, title: 'testing webhook' }), { requested_team: team });
  t.same(message(github, teamRequest, PR).content,
    '**singhsourabh** requested [authority](https://github.com/orgs/test-org965/teams/authority) for a review on [PR #4](https://github.com/test-org965/webhook-test/pull/4).');
  const tushar = (action: string, reason: string | null) =>
    pullRequestEvent(action, 'tushar912/public-repo', 'tushar912', pullRequest('tushar912/public-repo', 'tushar912', { number: 1, title: 'Update the README with new information', activeLockReason: reason }));
  const url = 'https://github.com/tushar912/public-repo/pull/1';
  t.same(message(github, tushar('locked', 'off-topic'), PR).content, `tushar912 has locked [PR #1](${url}) as off-topic and limited conversation to collaborators.`);
  t.same(message(github, tushar('locked', null), PR).content, `tushar912 has locked [PR #1](${url}) as None and limited conversation to collaborators.`, "Zulip's wording without a reason");
  t.same(message(github, tushar('unlocked', null), PR).content, `tushar912 has unlocked [PR #1](${url}).`);
  t.same(message(github, tushar('auto_merge_enabled', null), PR).content, `tushar912 has enabled auto merge for [PR #1](${url}).`);
  t.same(message(github, tushar('auto_merge_disabled', null), PR).content, `tushar912 has disabled auto merge for [PR #1](${url}).`);
});

t.test('ignored pull request actions post nothing; other unknown actions are unsupported', async (t) => {
  for (const action of ['approved', 'converted_to_draft', 'labeled', 'review_request_removed', 'unlabeled']) t.same(hook(github, { action }, PR), [], action);
  hookFails(t, github, prEvent('enqueued'), PR, unsupported('GitHub', 'pull_request:enqueued'));
});

t.test('pull request reviews and review comments', async (t) => {
  const review = { id: 2626884, html_url: `${PR_URL}#pullrequestreview-2626884`, body: 'Looks great!', state: 'APPROVED', user: user('baxterthehacker') };
  const REVIEW = { headers: { 'X-GitHub-Event': 'pull_request_review' } };
  t.same(message(github, prEvent('submitted', {}, { review }), REVIEW), {
    topic: TOPIC_PR,
    content: `baxterthehacker submitted [PR review](${PR_URL}#pullrequestreview-2626884):\n\n~~~ quote\nLooks great!\n~~~`,
  });
  t.same(message(github, prEvent('submitted', {}, { review }), CUSTOM(REVIEW.headers)).content,
    `baxterthehacker submitted [PR review for #1 Update the README with new information](${PR_URL}#pullrequestreview-2626884):\n\n~~~ quote\nLooks great!\n~~~`);
  t.same(message(github, prEvent('submitted', {}, { review: { ...review, body: null } }), REVIEW).content, `baxterthehacker submitted [PR review](${PR_URL}#pullrequestreview-2626884).`);
  t.same(hook(github, prEvent('edited', {}, { review, changes: {} }), REVIEW), [], "GitHub's duplicate empty edit posts nothing");
  const reviewComment = comment(`${PR_URL}#discussion_r29724692`, 'Maybe you should use more emoji on this line.');
  const COMMENT = { headers: { 'X-GitHub-Event': 'pull_request_review_comment' } };
  t.same(message(github, prEvent('created', {}, { comment: reviewComment }), COMMENT), {
    topic: TOPIC_PR,
    content: `baxterthehacker created [PR review comment](${PR_URL}#discussion_r29724692):\n\n~~~ quote\nMaybe you should use more emoji on this line.\n~~~`,
  });
  t.same(message(github, prEvent('created', {}, { comment: reviewComment }), CUSTOM(COMMENT.headers)).content,
    `baxterthehacker created [PR review comment on #1 Update the README with new information](${PR_URL}#discussion_r29724692):\n\n~~~ quote\nMaybe you should use more emoji on this line.\n~~~`);
  t.same(message(github, prEvent('deleted', {}, { comment: reviewComment }), COMMENT).content, `baxterthehacker deleted [PR review comment](${PR_URL}#discussion_r29724692).`);
});

const ISSUE_URL = 'https://github.com/baxterthehacker/public-repo/issues/2';
const ISSUES = { headers: { 'X-GitHub-Event': 'issues' } };
const issue2 = (extra: Parameters<typeof issue>[3] = {}) => issue(REPO, 2, 'Spelling error in the README file', extra);
const BODY = "It looks like you accidentally spelled 'commit' with two 't's.";

t.test('issues opened, with a custom topic, and closed', async (t) => {
  t.same(message(github, issueEvent('opened', REPO, 'baxterthehacker', issue2({ body: BODY })), ISSUES), {
    topic: 'public-repo / issue #2 Spelling error in the README file',
    content: `baxterthehacker opened [issue #2](${ISSUE_URL}):\n\n~~~ quote\n${BODY}\n~~~`,
  });
  t.same(message(github, issueEvent('opened', REPO, 'baxterthehacker', issue2({ body: BODY })), CUSTOM(ISSUES.headers)), {
    topic: 'notifications',
    content: `baxterthehacker opened [issue #2 Spelling error in the README file](${ISSUE_URL}):\n\n~~~ quote\n${BODY}\n~~~`,
  });
  t.same(message(github, issueEvent('closed', REPO, 'baxterthehacker', issue2()), ISSUES).content, `baxterthehacker closed [issue #2](${ISSUE_URL}).`);
  t.same(hook(github, issueEvent('closed', REPO, 'baxterthehacker', issue2()), ISSUES)[0]!.eventType, 'issues');
});

t.test('issues assigned and unassigned name whom; the body is left out', async (t) => {
  const url = 'https://github.com/sbansal1999/testing-gh/issues/7';
  const assigned = issueEvent('assigned', 'sbansal1999/testing-gh', 'sbansal1999', issue('sbansal1999/testing-gh', 7, 'Testing when issue assigned!', { body: 'ignored' }), { assignee: user('sbansal1999') });
  t.same(message(github, assigned, ISSUES), { topic: 'testing-gh / issue #7 Testing when issue assigned!', content: `sbansal1999 assigned sbansal1999 to [issue #7](${url}).` });
  t.same(message(github, assigned, CUSTOM(ISSUES.headers)).content, `sbansal1999 assigned sbansal1999 to [issue #7 Testing when issue assigned!](${url})`);
  const unassigned = issueEvent('unassigned', 'sbansal1999/testing-gh', 'sbansal1999', issue('sbansal1999/testing-gh', 9, 'idk man'), { assignee: user('sbansal1999') });
  t.same(message(github, unassigned, ISSUES), {
    topic: 'testing-gh / issue #9 idk man',
    content: 'sbansal1999 unassigned sbansal1999 from [issue #9](https://github.com/sbansal1999/testing-gh/issues/9).',
  });
});

t.test('issue labels and milestones; long topics are cut to 60 characters', async (t) => {
  const url9 = 'https://github.com/sbansal1999/testing-gh/issues/9';
  const labeled = (action: string) => issueEvent(action, 'sbansal1999/testing-gh', 'sbansal1999', issue('sbansal1999/testing-gh', 9, 'idk man'), { label: { name: 'bug', color: 'd73a4a' } });
  t.same(message(github, labeled('labeled'), ISSUES), { topic: 'testing-gh / issue #9 idk man', content: `[sbansal1999](https://github.com/sbansal1999) added the bug label to [Issue #9](${url9}).` });
  t.same(message(github, labeled('labeled'), CUSTOM(ISSUES.headers)).content, `[sbansal1999](https://github.com/sbansal1999) added the bug label to [Issue #9 idk man](${url9}).`);
  t.same(message(github, labeled('unlabeled'), ISSUES).content, `[sbansal1999](https://github.com/sbansal1999) removed the bug label from [Issue #9](${url9}).`);
  t.same(hook(github, labeled('labeled'), ISSUES)[0]!.eventType, 'issue_labeled_or_unlabeled');
  const milestone = { title: 'some_random_milestone', html_url: 'https://github.com/sbansal1999/testing-gh/milestone/1' };
  const longTitle = 'This is a sample issue to test GH Integration Func';
  const milestoned = (action: string) => issueEvent(action, 'sbansal1999/testing-gh', 'sbansal1999', issue('sbansal1999/testing-gh', 6, longTitle), { milestone });
  const url6 = 'https://github.com/sbansal1999/testing-gh/issues/6';
  t.same(message(github, milestoned('milestoned'), ISSUES), {
    topic: 'testing-gh / issue #6 This is a sample issue to test GH I...',
    content: `[sbansal1999](https://github.com/sbansal1999) added milestone [some_random_milestone](https://github.com/sbansal1999/testing-gh/milestone/1) to [issue #6](${url6}).`,
  });
  t.same(message(github, milestoned('milestoned'), CUSTOM(ISSUES.headers)).content,
    `[sbansal1999](https://github.com/sbansal1999) added milestone [some_random_milestone](https://github.com/sbansal1999/testing-gh/milestone/1) to [issue #6 ${longTitle}](${url6}).`);
  t.same(message(github, milestoned('demilestoned'), ISSUES).content,
    `[sbansal1999](https://github.com/sbansal1999) removed milestone [some_random_milestone](https://github.com/sbansal1999/testing-gh/milestone/1) from [issue #6](${url6}).`);
});

t.test('issues transferred, and opened by a transfer', async (t) => {
  const transferred = issueEvent('transferred', 'sbansal1999/testing-gh', 'sbansal1999', issue('sbansal1999/testing-gh', 7, 'Testing issue transfer'), {
    changes: { new_issue: { number: 1, html_url: 'https://github.com/sbansal1999/testing-gh-2/issues/1' }, new_repository: repository('sbansal1999/testing-gh-2') },
  });
  t.same(message(github, transferred, ISSUES), {
    topic: 'testing-gh / issue #7 Testing issue transfer',
    content: 'sbansal1999 transferred [issue #7 Testing issue transfer](https://github.com/sbansal1999/testing-gh/issues/7) to [sbansal1999/testing-gh-2/#1](https://github.com/sbansal1999/testing-gh-2/issues/1).',
  });
  const opened = issueEvent('opened', 'sbansal1999/testing-gh-2', 'sbansal1999', issue('sbansal1999/testing-gh-2', 1, 'Testing issue transfer'), {
    changes: { old_issue: { number: 7, html_url: 'https://github.com/sbansal1999/testing-gh/issues/7' }, old_repository: repository('sbansal1999/testing-gh') },
  });
  t.same(message(github, opened, ISSUES).content,
    '[Issue #1 Testing issue transfer](https://github.com/sbansal1999/testing-gh-2/issues/1) was transferred from [sbansal1999/testing-gh#7](https://github.com/sbansal1999/testing-gh/issues/7).');
  t.same(hook(github, opened, ISSUES)[0]!.eventType, 'issues_opened_via_transfer');
});

t.test('issue comments: created, deleted, on a pull request; an edit that changed nothing posts nothing', async (t) => {
  const COMMENTS = { headers: { 'X-GitHub-Event': 'issue_comment' } };
  const text = "You are totally right! I'll get this fixed right away.";
  const created = issueEvent('created', REPO, 'baxterthehacker', issue2(), { comment: comment(`${ISSUE_URL}#issuecomment-99262140`, text) });
  t.same(message(github, created, COMMENTS), {
    topic: 'public-repo / issue #2 Spelling error in the README file',
    content: `baxterthehacker [commented](${ISSUE_URL}#issuecomment-99262140) on [issue #2](${ISSUE_URL}):\n\n~~~ quote\n${text}\n~~~`,
  });
  t.same(message(github, created, CUSTOM(COMMENTS.headers)).content,
    `baxterthehacker [commented](${ISSUE_URL}#issuecomment-99262140) on [issue #2 Spelling error in the README file](${ISSUE_URL}):\n\n~~~ quote\n${text}\n~~~`);
  const deleted = issueEvent('deleted', REPO, 'baxterthehacker', issue2(), { comment: comment(`${ISSUE_URL}#issuecomment-99262140`, text) });
  t.same(message(github, deleted, COMMENTS).content, `baxterthehacker deleted a [comment](${ISSUE_URL}#issuecomment-99262140) on [issue #2](${ISSUE_URL}):\n\n~~~ quote\n${text}\n~~~`);
  const onPr = issueEvent('created', 'sbansal1999/public-repo', 'sbansal1999', issue('sbansal1999/public-repo', 1, 'Update the README with new information', { pullRequest: true }), {
    comment: comment('https://github.com/sbansal1999/public-repo/pull/1#issuecomment-1631445420', 'Some comment'),
  });
  t.same(message(github, onPr, COMMENTS), {
    topic: TOPIC_PR,
    content: 'sbansal1999 [commented](https://github.com/sbansal1999/public-repo/pull/1#issuecomment-1631445420) on [PR #1](https://github.com/sbansal1999/public-repo/pull/1):\n\n~~~ quote\nSome comment\n~~~',
  });
  const unchanged = { ...created, action: 'edited', changes: { body: { from: text } } };
  t.same(hook(github, unchanged, COMMENTS), []);
  const changed = { ...created, action: 'edited', changes: { body: { from: 'A typo' } } };
  t.same(message(github, changed, COMMENTS).content, `baxterthehacker edited a [comment](${ISSUE_URL}#issuecomment-99262140) on [issue #2](${ISSUE_URL}):\n\n~~~ quote\n${text}\n~~~`);
});
