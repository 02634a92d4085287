// The GitHub integration's other events (ping, stars, forks, releases, check runs, statuses, teams,
// wiki, discussions, sponsors, ...), the events that post nothing, unsupported events, the event
// header, and only_events / exclude_events on Zulip's event names.
import t from 'tap';
import { github } from '../lib/integrations/github.js';
import { comment, push, repository, user } from './github_payloads.js';
import { hook, hookFails, message, unsupported } from './integration_helpers.js';

const REPO = 'baxterthehacker/public-repo';
const event = (name: string) => ({ headers: { 'X-GitHub-Event': name } });
const base = (sender = 'baxterthehacker', fullName = REPO) => ({ repository: repository(fullName), sender: user(sender) });

t.test('ping: the setup message, in the repository or organization topic', async (t) => {
  t.same(message(github, { zen: 'Keep it logically awesome.', hook_id: 1, ...base('TomaszKolek') }, event('ping')), {
    topic: 'public-repo',
    content: 'GitHub webhook has been successfully configured by TomaszKolek.',
  });
  t.same(message(github, { zen: 'Design for failure.', organization: { login: 'zulip-test-org' }, sender: user('eeshangarg') }, event('ping')), {
    topic: 'zulip-test-org',
    content: 'GitHub webhook has been successfully configured by eeshangarg.',
  });
});

t.test('stars and watches, forks, public repositories, repository events, members and teams', async (t) => {
  const hello = base('Codertocat', 'Codertocat/Hello-World');
  t.same(message(github, { action: 'created', starred_at: '2019-05-15T15:20:40Z', ...hello }, event('star')), {
    topic: 'Hello-World',
    content: '[Codertocat](https://github.com/Codertocat) starred the repository [Codertocat/Hello-World](https://github.com/Codertocat/Hello-World).',
  });
  t.same(message(github, { action: 'deleted', starred_at: null, ...hello }, event('star')).content,
    '[Codertocat](https://github.com/Codertocat) unstarred the repository [Codertocat/Hello-World](https://github.com/Codertocat/Hello-World).');
  t.same(message(github, { action: 'started', ...base() }, event('watch')), {
    topic: 'public-repo',
    content: 'baxterthehacker starred the repository [baxterthehacker/public-repo](https://github.com/baxterthehacker/public-repo).',
  });
  const forkee = repository('baxterandthehackers/public-repo', { fork: true });
  t.same(message(github, { forkee, ...base('baxterandthehackers') }, event('fork')).content,
    'baxterandthehackers forked [public-repo](https://github.com/baxterandthehackers/public-repo).');
  t.same(message(github, base(), event('public')).content,
    'baxterthehacker made the repository [baxterthehacker/public-repo](https://github.com/baxterthehacker/public-repo) public.');
  t.same(message(github, { action: 'created', ...base('baxterthehacker', 'baxterandthehackers/public-repo') }, event('repository')).content,
    'baxterthehacker created the repository [baxterandthehackers/public-repo](https://github.com/baxterandthehackers/public-repo).');
  t.same(message(github, { action: 'added', member: user('octocat'), ...base() }, event('member')).content,
    'baxterthehacker added [octocat](https://github.com/octocat) to [public-repo](https://github.com/baxterthehacker/public-repo).');
  const membership = (action: string) => ({ action, scope: 'team', member: user('kdaigle'), team: { name: 'Contractors' }, organization: { login: 'baxterandthehackers' }, sender: user('baxterthehacker') });
  t.same(message(github, membership('added'), event('membership')), {
    topic: 'baxterandthehackers organization',
    content: 'baxterthehacker added [kdaigle](https://github.com/kdaigle) to the Contractors team.',
  });
  t.same(message(github, membership('removed'), event('membership')).content, 'baxterthehacker removed [kdaigle](https://github.com/kdaigle) from the Contractors team.');
  t.same(message(github, { team: { name: 'github' }, ...base('baxterthehacker', 'baxterandthehackers/public-repo') }, event('team_add')).content,
    'The repository [baxterandthehackers/public-repo](https://github.com/baxterandthehackers/public-repo) was added to team github.');
});

t.test('teams edited: description, name, visibility, other changes; ignored and unknown team actions', async (t) => {
  const team = (changes: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
    action: 'edited',
    changes,
    team: { name: 'Testing', description: 'A temporary team so that I can get some webhook fixtures!', privacy: 'secret', ...extra },
    sender: user('Hypro999'),
  });
  t.same(message(github, team({ description: { from: '' } }), event('team')), {
    topic: 'team Testing',
    content: '**Hypro999** changed the team description to:\n\n~~~ quote\nA temporary team so that I can get some webhook fixtures!\n~~~',
  });
  t.same(message(github, team({ name: { from: 'Testing' } }, { name: 'Testing Team' }), event('team')), { topic: 'team Testing Team', content: 'Team `Testing` was renamed to `Testing Team`.' });
  t.same(message(github, team({ privacy: { from: 'closed' } }, { name: 'Testing Team' }), event('team')).content, 'Team visibility changed to `secret`');
  t.same(message(github, { action: 'edited', changes: { bogus_key2: {}, bogus_key1: {} }, team: { name: 'My Team' } }, event('team')), {
    topic: 'team My Team',
    content: 'Team has changes to `bogus_key1/bogus_key2` data.',
  });
  for (const action of ['added_to_repository', 'created', 'deleted', 'removed_from_repository']) t.same(hook(github, { action }, event('team')), [], action);
  hookFails(t, github, { action: 'renamed' }, event('team'), unsupported('GitHub', 'unsupported team action renamed'));
});

t.test('commit comments, tags and branches created or deleted, deployments', async (t) => {
  const url = 'https://github.com/baxterthehacker/public-repo/commit/9049f1265b7d61be4a8904a9a27120d2064dab3b';
  const commitComment = { ...comment(`${url}#commitcomment-11056394`, 'This is a really good change! :+1:'), commit_id: '9049f1265b7d61be4a8904a9a27120d2064dab3b' };
  t.same(message(github, { action: 'created', comment: commitComment, ...base() }, event('commit_comment')), {
    topic: 'public-repo',
    content: `baxterthehacker [commented](${url}#commitcomment-11056394) on [9049f1265b7](${url}):\n~~~ quote\nThis is a really good change! :+1:\n~~~`,
  });
  t.same(message(github, { ref: '0.0.1', ref_type: 'tag', master_branch: 'master', ...base() }, event('create')).content, 'baxterthehacker created tag 0.0.1.');
  t.same(message(github, { ref: 'simple-tag', ref_type: 'tag', ...base() }, event('delete')).content, 'baxterthehacker deleted tag simple-tag.');
  const deployment = { id: 710692, sha: '9049f1265b7d61be4a8904a9a27120d2064dab3b', ref: 'master', environment: 'production' };
  t.same(message(github, { deployment, ...base() }, event('deployment')), { topic: 'public-repo / Deployment on production', content: 'baxterthehacker created new deployment.' });
  t.same(message(github, { deployment, deployment_status: { state: 'success' }, ...base() }, event('deployment_status')), {
    topic: 'public-repo / Deployment on production',
    content: 'Deployment changed status to success.',
  });
});

t.test('releases: named by their name, or their tag without one', async (t) => {
  const release = (name: string | null) => ({ action: 'published', release: { tag_name: '0.0.1', name, html_url: 'https://github.com/baxterthehacker/public-repo/releases/tag/0.0.1' }, ...base() });
  const expected = 'baxterthehacker published release [0.0.1](https://github.com/baxterthehacker/public-repo/releases/tag/0.0.1) for tag 0.0.1.';
  t.same(message(github, release(null), event('release')), { topic: 'public-repo', content: expected });
  t.same(message(github, release('Release 1'), event('release')).content, expected.replace('[0.0.1]', '[Release 1]'));
});

t.test('page builds, commit statuses and completed check runs; other check runs post nothing', async (t) => {
  const build = (status: string, error: string | null) => ({ build: { status, error: { message: error }, pusher: user('baxterthehacker') }, ...base() });
  t.same(message(github, build('built', null), event('page_build')).content, 'GitHub Pages build, triggered by baxterthehacker, has finished building.');
  t.same(message(github, build('errored', 'Something went wrong.'), event('page_build')).content,
    'GitHub Pages build, triggered by baxterthehacker, has failed: \n~~~ quote\nSomething went wrong.\n~~~.');
  t.same(message(github, build('queued', null), event('page_build')).content, 'GitHub Pages build, triggered by baxterthehacker, is queued.');
  const sha = '9049f1265b7d61be4a8904a9a27120d2064dab3b';
  const status = (targetUrl: string | null) => ({ sha, state: 'success', target_url: targetUrl, commit: { html_url: `https://github.com/baxterthehacker/public-repo/commit/${sha}` }, ...base() });
  t.same(message(github, status(null), event('status')).content, `[9049f1265b7](https://github.com/baxterthehacker/public-repo/commit/${sha}) changed its status to success.`);
  t.same(message(github, status('https://example.com/build/status'), event('status')).content,
    `[9049f1265b7](https://github.com/baxterthehacker/public-repo/commit/${sha}) changed its status to [success](https://example.com/build/status).`);
  const run = (status: string) => ({
    action: 'completed',
    check_run: { name: 'randscape', html_url: 'http://github.com/github/hello-world/runs/4', status, conclusion: status === 'completed' ? 'success' : null, head_sha: 'd6fde92930d4715a2b49857d24b940956b26d2d3' },
    ...base('github', 'github/hello-world'),
    repository: repository('github/hello-world', { html_url: 'http://github.com/github/hello-world' }),
  });
  t.same(message(github, run('completed'), event('check_run')), {
    topic: 'hello-world / checks',
    content: 'Check [randscape](http://github.com/github/hello-world/runs/4) completed (success). ([d6fde92930d](http://github.com/github/hello-world/commit/d6fde92930d4715a2b49857d24b940956b26d2d3))',
  });
  t.same(hook(github, run('in_progress'), event('check_run')), []);
});

t.test('wiki pages and discussions', async (t) => {
  const page = { page_name: 'Home', title: 'Home', action: 'created', html_url: 'https://github.com/baxterthehacker/public-repo/wiki/Home' };
  t.same(message(github, { pages: [page, page], ...base('jasonrudolph') }, event('gollum')), {
    topic: 'public-repo / wiki pages',
    content: 'jasonrudolph:\n* created [Home](https://github.com/baxterthehacker/public-repo/wiki/Home)\n* created [Home](https://github.com/baxterthehacker/public-repo/wiki/Home)',
  });
  const discussion = { number: 20, title: 'Lets discuss', html_url: 'https://github.com/sbansal1999/testing-gh/discussions/20', body: 'Some random text about which no one cares.\r\n', category: { name: 'General' } };
  const topic = 'testing-gh discussion #20: Lets discuss';
  t.same(message(github, { action: 'created', discussion, ...base('sbansal1999', 'sbansal1999/testing-gh') }, event('discussion')), {
    topic,
    content: 'sbansal1999 created [discussion #20](https://github.com/sbansal1999/testing-gh/discussions/20) in General:\n\n~~~ quote\n### Lets discuss\nSome random text about which no one cares.\r\n\n~~~',
  });
  const reply = (action: string, text: string) => ({ action, discussion, comment: comment('https://github.com/sbansal1999/testing-gh/discussions/20#discussioncomment-6332416', text), ...base('sbansal1999', 'sbansal1999/testing-gh') });
  t.same(message(github, reply('created', 'some random comment'), event('discussion_comment')), {
    topic,
    content: 'sbansal1999 [commented](https://github.com/sbansal1999/testing-gh/discussions/20#discussioncomment-6332416) on [discussion #20](https://github.com/sbansal1999/testing-gh/discussions/20):\n\n~~~ quote\nsome random comment\n~~~',
  });
  t.same(message(github, reply('created', 'some random comment'), { ...event('discussion_comment'), params: { topic: 'notifications' } }).content,
    'sbansal1999 [commented](https://github.com/sbansal1999/testing-gh/discussions/20#discussioncomment-6332416) on [discussion #20 Lets discuss](https://github.com/sbansal1999/testing-gh/discussions/20):\n\n~~~ quote\nsome random comment\n~~~');
  const edited = { ...reply('edited', 'some random comment edited'), changes: { body: { from: 'some random comment edited' } } };
  t.same(message(github, edited, event('discussion_comment')).content,
    'sbansal1999 edited a [comment](https://github.com/sbansal1999/testing-gh/discussions/20#discussioncomment-6332416) on [discussion #20](https://github.com/sbansal1999/testing-gh/discussions/20):\n\n~~~ quote\nsome random comment edited\n~~~',
    'an unchanged edit still posts for discussion comments');
});

t.test('GitHub Sponsors events, in the "sponsors" topic', async (t) => {
  const sponsorship = (extra: Record<string, unknown> = {}) => ({ sponsorship: { privacy_level: 'private', tier: { name: '$5 a month' } }, sender: user('monalisa'), ...extra });
  t.same(message(github, sponsorship(), event('cancelled')), { topic: 'sponsors', content: 'monalisa cancelled their $5 a month subscription.' });
  t.same(message(github, sponsorship(), event('created')).content, 'monalisa subscribed for $5 a month.');
  t.same(message(github, sponsorship({ effective_date: '2020-01-05T00:00:00+00:00' }), event('pending_cancellation')).content,
    "monalisa's $5 a month subscription will be cancelled on January 05, 2020.");
  const change = { changes: { tier: { from: { name: '$10 a month' } } } };
  t.same(message(github, sponsorship({ ...change, effective_date: '2019-12-30T00:00:00+00:00' }), event('pending_tier_change')).content,
    "monalisa's subscription will change from $10 a month to $5 a month on December 30, 2019.");
  t.same(message(github, sponsorship(change), event('tier_changed')).content, 'monalisa changed their subscription from $10 a month to $5 a month.');
  t.same(message(github, sponsorship({ changes: { privacy_level: { from: 'public' } } }), event('edited')).content, 'monalisa changed who can see their sponsorship from public to private.');
});

t.test('events GitHub sends that post nothing, whatever their payload', async (t) => {
  for (const name of ['check_suite', 'label', 'meta', 'milestone', 'organization', 'project_card', 'repository_vulnerability_alert']) {
    t.same(hook(github, {}, event(name)), [], name);
  }
});

t.test("other events are Zulip's unsupported event, answered with HTTP 200", async (t) => {
  hookFails(t, github, { action: 'created', ...base() }, event('sponsorship'), unsupported('GitHub', 'sponsorship:created'));
  hookFails(t, github, base(), event('workflow_dispatch'), unsupported('GitHub', 'workflow_dispatch:???'));
});

t.test('without the X-GitHub-Event header: MISSING_HTTP_EVENT_HEADER', async (t) => {
  hookFails(t, github, base(), {}, { status: 400, code: 'MISSING_HTTP_EVENT_HEADER', msg: "Missing the HTTP event header 'X-GitHub-Event'", extra: { header: 'X-GitHub-Event' } });
  t.equal(hook(github, base(), { headers: { 'x-github-event': 'public' } }).length, 1, 'header names in any case');
});

t.test('only_events and exclude_events match Zulip event names with shell wildcards', async (t) => {
  const pushed = push(REPO, 'baxterthehacker', { compare: 'https://github.com/x/y/compare/a...b', commits: [] });
  const PUSH = event('push');
  t.equal(hook(github, pushed, { ...PUSH, params: { only_events: '["push_commits"]' } }).length, 1);
  t.equal(hook(github, pushed, { ...PUSH, params: { only_events: '["push_*"]' } }).length, 1);
  t.same(hook(github, pushed, { ...PUSH, params: { only_events: '["issues", "star"]' } }), []);
  t.same(hook(github, pushed, { ...PUSH, params: { exclude_events: '["push_commit?"]' } }), []);
  t.equal(hook(github, pushed, { ...PUSH, params: { exclude_events: '["push_tags"]' } }).length, 1);
  t.same(hook(github, pushed, { ...PUSH, params: { only_events: '["*"]', exclude_events: '["[p]ush_*"]' } }), []);
  t.equal(hook(github, pushed, { ...PUSH, params: { only_events: '["[!i]ush_commits"]' } }).length, 1);
  t.same(hook(github, pushed, { ...PUSH, params: { only_events: '[]' } }), [], 'an empty list lets nothing through');
  hookFails(t, github, pushed, { ...PUSH, params: { only_events: 'push_commits' } }, { status: 400, code: 'BAD_REQUEST', msg: 'only_events is not valid JSON' });
  hookFails(t, github, pushed, { ...PUSH, params: { exclude_events: '{"a": 1}' } }, { status: 400, code: 'BAD_REQUEST', msg: 'exclude_events is not a list' });
  hookFails(t, github, pushed, { ...PUSH, params: { only_events: '["push_commits", 3]' } }, { status: 400, code: 'BAD_REQUEST', msg: 'only_events[1] is not a string' });
});
