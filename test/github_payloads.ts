// GitHub webhook payloads for the GitHub integration's tests, shaped as GitHub documents them
// (https://docs.github.com/en/webhooks/webhook-events-and-payloads), with only the fields around
// what a message shows.

export function user(login: string, type = 'User') {
  return {
    login,
    id: 583231,
    node_id: 'MDQ6VXNlcjU4MzIzMQ==',
    avatar_url: 'https://avatars.githubusercontent.com/u/583231?v=4',
    url: `https://api.github.com/users/${login}`,
    html_url: `https://github.com/${login}`,
    type,
    site_admin: false,
  };
}

export function repository(fullName: string, extra: Record<string, unknown> = {}) {
  const [owner, name] = fullName.split('/') as [string, string];
  return {
    id: 1296269,
    node_id: 'MDEwOlJlcG9zaXRvcnkxMjk2MjY5',
    name,
    full_name: fullName,
    private: false,
    owner: user(owner),
    html_url: `https://github.com/${fullName}`,
    description: 'This your first repo!',
    fork: false,
    url: `https://api.github.com/repos/${fullName}`,
    default_branch: 'main',
    ...extra,
  };
}

export function commit(fullName: string, sha: string, message: string, author: { name: string; username?: string }) {
  const person = { name: author.name, email: `${author.name.replace(/\s/g, '').toLowerCase()}@example.com`, ...(author.username ? { username: author.username } : {}) };
  return {
    id: sha,
    tree_id: 'f9d2a07e9488b91af2641b26b9407fe22a451433',
    distinct: true,
    message,
    timestamp: '2015-05-05T19:40:15-04:00',
    url: `https://github.com/${fullName}/commit/${sha}`,
    author: person,
    committer: person,
    added: [],
    removed: [],
    modified: ['README.md'],
  };
}

export interface PushOptions {
  ref?: string;
  compare: string;
  commits?: unknown[];
  deleted?: boolean;
  forced?: boolean;
  created?: boolean;
  private?: boolean;
}

export function push(fullName: string, sender: string, options: PushOptions) {
  const commits = options.commits ?? [];
  return {
    ref: options.ref ?? 'refs/heads/changes',
    before: '9049f1265b7d61be4a8904a9a27120d2064dab3b',
    after: '0d1a26e67d8f5eaf1f6ba5c57fc3c7d91ac0fd1c',
    created: options.created ?? false,
    deleted: options.deleted ?? false,
    forced: options.forced ?? false,
    base_ref: null,
    compare: options.compare,
    commits,
    head_commit: commits.at(-1) ?? null,
    repository: repository(fullName, { private: options.private ?? false }),
    pusher: { name: sender, email: `${sender}@example.com` },
    sender: user(sender),
  };
}

export interface PullRequestOptions {
  number: number;
  title: string;
  body?: string | null;
  head?: string;
  base?: string;
  assignee?: string | null;
  merged?: boolean;
  activeLockReason?: string | null;
}

export function pullRequest(fullName: string, author: string, options: PullRequestOptions) {
  const owner = fullName.split('/')[0]!;
  return {
    url: `https://api.github.com/repos/${fullName}/pulls/${options.number}`,
    id: 34778301,
    html_url: `https://github.com/${fullName}/pull/${options.number}`,
    number: options.number,
    state: 'open',
    locked: false,
    title: options.title,
    user: user(author),
    body: options.body === undefined ? 'This is a pretty simple change that we need to pull into main.' : options.body,
    active_lock_reason: options.activeLockReason ?? null,
    assignee: options.assignee ? user(options.assignee) : null,
    assignees: options.assignee ? [user(options.assignee)] : [],
    head: { label: `${owner}:${options.head ?? 'changes'}`, ref: options.head ?? 'changes', sha: '0d1a26e67d8f5eaf1f6ba5c57fc3c7d91ac0fd1c' },
    base: { label: `${owner}:${options.base ?? 'main'}`, ref: options.base ?? 'main', sha: '9049f1265b7d61be4a8904a9a27120d2064dab3b' },
    merged: options.merged ?? false,
    comments: 0,
    commits: 1,
  };
}

export function pullRequestEvent(action: string, fullName: string, sender: string, pr: ReturnType<typeof pullRequest>, extra: Record<string, unknown> = {}) {
  return { action, number: pr.number, pull_request: pr, repository: repository(fullName), sender: user(sender), ...extra };
}

export function issue(fullName: string, number: number, title: string, options: { body?: string | null; pullRequest?: boolean; assignee?: string | null } = {}) {
  return {
    url: `https://api.github.com/repos/${fullName}/issues/${number}`,
    html_url: `https://github.com/${fullName}/${options.pullRequest ? 'pull' : 'issues'}/${number}`,
    id: 73464126,
    number,
    title,
    user: user(fullName.split('/')[0]!),
    labels: [],
    state: 'open',
    locked: false,
    assignee: options.assignee ? user(options.assignee) : null,
    assignees: options.assignee ? [user(options.assignee)] : [],
    comments: 0,
    body: options.body === undefined ? null : options.body,
    ...(options.pullRequest ? { pull_request: { url: `https://api.github.com/repos/${fullName}/pulls/${number}`, html_url: `https://github.com/${fullName}/pull/${number}` } } : {}),
  };
}

export function issueEvent(action: string, fullName: string, sender: string, item: ReturnType<typeof issue>, extra: Record<string, unknown> = {}) {
  return { action, issue: item, repository: repository(fullName), sender: user(sender), ...extra };
}

export function comment(htmlUrl: string, body: string) {
  return { url: 'https://api.github.com/repos/comments/99262140', html_url: htmlUrl, id: 99262140, user: user('baxterthehacker'), body, created_at: '2015-05-05T23:40:28Z' };
}
