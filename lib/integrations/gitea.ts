// The Gitea integration (Zulip's zerver/webhooks/gitea/view.py on top of gogs/view.py, Gitea being a
// fork of Gogs): the X-Gitea-Event header names the event. URL parameter: `branches`.
// https://zulip.com/integrations/gitea
import { branchWanted, createBranchMessage, issueMessage, itemMessage, pushCommitsMessage, releaseMessage, topicWithBranch, topicWithItem } from './git.js';
import { BRANCHES_OPTION, requireHeader, UnsupportedEvent, type Integration, type WebhookInput, type WebhookMessage } from './webhook.js';
import type { Wild } from './wild.js';

const issueUrl = (p: Wild, number: number): string => `${p.at('repository').at('html_url').str()}/issues/${number}`;

function push(p: Wild): string {
  const commits = p.at('commits').items().map((commit) => {
    const author = commit.at('author');
    // A commit author without a username: the first word of the name.
    const username = author.at('username').str();
    return {
      name: username || author.at('name').str().trim().split(/\s+/)[0]!,
      sha: commit.at('id').str(),
      url: commit.at('url').str(),
      message: commit.at('message').str(),
    };
  });
  return pushCommitsMessage({
    userName: p.at('sender').at('username').str(),
    compareUrl: p.at('compare_url').str(),
    branch: p.at('ref').str().replaceAll('refs/heads/', ''),
    commits,
  });
}

function newBranch(p: Wild): string {
  const branch = p.at('ref').str();
  return createBranchMessage(p.at('sender').at('username').str(), `${p.at('repository').at('html_url').str()}/src/${branch}`, branch);
}

/** Gitea's format_pull_request_event (not Gogs's): the sender acts, branches come from head/base. */
function pullRequest(p: Wild, includeTitle: boolean): string {
  const pr = p.at('pull_request');
  const assignee = pr.at('assignee');
  const merged = pr.at('merged').bool();
  const userName = merged ? pr.at('merged_by').at('username').str() : p.at('sender').at('username').str();
  const action = merged ? 'merged' : p.at('action').str();
  const edited = action === 'edited';
  const assigneeName = assignee.truthy ? assignee.at('login').str() : null;
  return itemMessage({
    userName,
    action,
    url: pr.at('html_url').str(),
    number: pr.at('number').int(),
    targetBranch: !edited && pr.has('head') ? pr.at('head').at('ref').str() : null,
    baseBranch: !edited && pr.has('base') ? pr.at('base').at('ref').str() : null,
    title: includeTitle ? pr.at('title').str() : null,
    assignee: assigneeName,
    assigneeUpdated: action === 'assigned' ? assigneeName : null,
  });
}

function issues(p: Wild, includeTitle: boolean): string {
  const item = p.at('issue');
  const number = item.at('number').int();
  const assignee = item.at('assignee');
  const assigneeName = assignee.truthy ? assignee.at('login').str() : null;
  const action = p.at('action').str();
  return issueMessage({
    userName: p.at('sender').at('login').str(),
    action,
    url: issueUrl(p, number),
    number,
    message: item.at('body').str(),
    assignee: assigneeName,
    title: includeTitle ? item.at('title').str() : null,
    assigneeUpdated: action === 'assigned' ? assigneeName : null,
  });
}

function issueComment(p: Wild, includeTitle: boolean): string {
  const action = p.at('action').str();
  const item = p.at('issue');
  const verb = action === 'created' ? '[commented]' : `${action} a [comment]`;
  return issueMessage({
    userName: p.at('sender').at('login').str(),
    action: `${verb}(${p.at('comment').at('html_url').str()}) on`,
    url: issueUrl(p, item.at('number').int()),
    number: item.at('number').int(),
    message: p.at('comment').at('body').str(),
    title: includeTitle ? item.at('title').str() : null,
  });
}

function release(p: Wild): string {
  const item = p.at('release');
  return releaseMessage(item.at('author').at('username').str(), p.at('action').str(), item.at('tag_name').str(), item.at('name').str(), p.at('repository').at('html_url').str());
}

/** Zulip's gogs_webhook_main with Gitea's pull request message. */
function handle(input: WebhookInput): WebhookMessage[] {
  const p = input.payload();
  const repo = p.at('repository').at('name').str();
  const event = requireHeader(input, 'X-Gitea-Event');
  const includeTitle = input.userTopic !== undefined;
  let topic: string;
  let content: string;
  if (event === 'push') {
    const branch = p.at('ref').str().replaceAll('refs/heads/', '');
    if (!branchWanted(branch, input.text('branches'))) return [];
    content = push(p);
    topic = topicWithBranch(repo, branch);
  } else if (event === 'create') {
    content = newBranch(p);
    topic = topicWithBranch(repo, p.at('ref').str());
  } else if (event === 'pull_request') {
    content = pullRequest(p, includeTitle);
    // Zulip's topic carries the pull request's id, not its number.
    topic = topicWithItem(repo, 'PR', p.at('pull_request').at('id').int(), p.at('pull_request').at('title').str());
  } else if (event === 'issues' || event === 'issue_comment') {
    content = event === 'issues' ? issues(p, includeTitle) : issueComment(p, includeTitle);
    topic = topicWithItem(repo, 'issue', p.at('issue').at('number').int(), p.at('issue').at('title').str());
  } else if (event === 'release') {
    content = release(p);
    topic = `${repo} / ${p.at('release').at('tag_name').str()} ${p.at('release').at('name').str()}`;
  } else throw new UnsupportedEvent(event);
  return [{ topic, content, eventType: event }];
}

export const gitea: Integration = {
  name: 'gitea',
  displayName: 'Gitea',
  webhookName: 'Gitea',
  events: ['issue_comment', 'issues', 'create', 'pull_request', 'push', 'release'],
  urlOptions: [BRANCHES_OPTION],
  handle,
};
