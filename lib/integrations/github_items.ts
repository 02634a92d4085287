// The GitHub integration's pull request, issue and comment messages (Zulip's
// zerver/webhooks/github/view.py), and the helpers every GitHub message uses.
import { issueLabelMessage, issueMessage, issueMilestoneMessage, itemMessage } from './git.js';
import { pythonStr } from './python.js';
import type { Wild } from './wild.js';

export interface Helper {
  payload: Wild;
  /** The `topic` parameter was given: bodies name the item's title. */
  includeTitle: boolean;
}

export type Body = (helper: Helper) => string;

export const sender = (p: Wild): string => p.at('sender').at('login').str();
export const senderUrl = (p: Wild): string => p.at('sender').at('html_url').str();
export const repoFullName = (p: Wild): string => p.at('repository').at('full_name').str();
export const repoUrl = (p: Wild): string => p.at('repository').at('html_url').str();
export const titleIf = (h: Helper, item: Wild): string | null => (h.includeTitle ? item.at('title').str() : null);
export const tagOf = (ref: string): string => ref.replace(/^refs\/tags\//, '');

/** "created" -> "[commented](url) on"; other actions -> "<action> a [comment](url) on". */
export function commentAction(p: Wild): string {
  const action = p.at('action').str();
  const verb = action === 'created' ? '[commented]' : `${action} a [comment]`;
  return `${verb}(${p.at('comment').at('html_url').str()}) on`;
}

const isPullRequestComment = (p: Wild): boolean => p.at('issue').has('pull_request');

function openedOrUpdatedPullRequest(h: Helper): string {
  const p = h.payload;
  const pr = p.at('pull_request');
  let action = p.at('action').str();
  if (action === 'synchronize') action = 'updated';
  const assignee = pr.get('assignee').truthy ? pr.at('assignee').at('login').str() : null;
  const opened = action === 'opened' || action === 'merged';
  return itemMessage({
    userName: sender(p),
    action,
    url: pr.at('html_url').str(),
    targetBranch: opened ? pr.at('head').at('label').str() : null,
    baseBranch: opened ? pr.at('base').at('label').str() : null,
    message: p.get('changes', {}).has('body') || action === 'opened' ? pr.at('body').strOrNone() : null,
    assignee,
    number: pr.at('number').int(),
    title: titleIf(h, pr),
  });
}

function assignedPullRequest(h: Helper): string {
  const p = h.payload;
  const pr = p.at('pull_request');
  return itemMessage({
    userName: sender(p),
    action: p.at('action').str(),
    url: pr.at('html_url').str(),
    number: pr.at('number').int(),
    title: titleIf(h, pr),
    assigneeUpdated: p.at('assignee').at('login').str(),
  });
}

function closedPullRequest(h: Helper): string {
  const pr = h.payload.at('pull_request');
  return itemMessage({
    userName: sender(h.payload),
    action: pr.at('merged').bool() ? 'merged' : 'closed without merge',
    url: pr.at('html_url').str(),
    number: pr.at('number').int(),
    title: titleIf(h, pr),
  });
}

function issue(h: Helper): string {
  const p = h.payload;
  const action = p.at('action').str();
  const item = p.at('issue');
  return issueMessage({
    userName: sender(p),
    action,
    url: item.at('html_url').str(),
    number: item.at('number').int(),
    message: action === 'assigned' || action === 'unassigned' ? null : item.at('body').strOrNone(),
    title: titleIf(h, item),
    assigneeUpdated: p.has('assignee') ? p.at('assignee').at('login').str() : null,
  });
}

function issueComment(h: Helper): string {
  const p = h.payload;
  const item = p.at('issue');
  return itemMessage({
    userName: sender(p),
    action: commentAction(p),
    url: item.at('html_url').str(),
    number: item.at('number').int(),
    message: p.at('comment').at('body').str(),
    title: titleIf(h, item),
    type: isPullRequestComment(p) ? 'PR' : 'issue',
  });
}

function pullRequestHeadline(template: (sender: string, number: number, url: string) => string): Body {
  return (h) => {
    const pr = h.payload.at('pull_request');
    return template(sender(h.payload), pr.at('number').int(), pr.at('html_url').str());
  };
}

function lockedPullRequest(h: Helper): string {
  const p = h.payload;
  const pr = p.at('pull_request');
  const [number, url] = [pr.at('number').int(), pr.at('html_url').str()];
  if (p.at('action').str() === 'unlocked') return `${sender(p)} has unlocked [PR #${number}](${url}).`;
  const reason = pr.at('active_lock_reason').truthy ? pr.at('active_lock_reason').str() : null;
  return `${sender(p)} has locked [PR #${number}](${url}) as ${pythonStr(reason)} and limited conversation to collaborators.`;
}

function pullRequestReview(h: Helper): string {
  const p = h.payload;
  const pr = p.at('pull_request');
  const title = `for #${pr.at('number').int()} ${pr.at('title').str()}`;
  return itemMessage({
    userName: sender(p),
    action: 'submitted',
    url: p.at('review').at('html_url').str(),
    type: 'PR review',
    title: h.includeTitle ? title : null,
    message: p.at('review').at('body').strOrNone(),
  });
}

function pullRequestReviewComment(h: Helper): string {
  const p = h.payload;
  const action = p.at('action').str();
  const pr = p.at('pull_request');
  const title = `on #${pr.at('number').int()} ${pr.at('title').str()}`;
  return itemMessage({
    userName: sender(p),
    action,
    url: p.at('comment').at('html_url').str(),
    message: action === 'created' ? p.at('comment').at('body').str() : null,
    type: 'PR review comment',
    title: h.includeTitle ? title : null,
  });
}

function reviewRequested(h: Helper): string {
  const p = h.payload;
  const pr = p.at('pull_request');
  const reviewer = p.has('requested_reviewer')
    ? `[${p.at('requested_reviewer').at('login').str()}](${p.at('requested_reviewer').at('html_url').str()})`
    : `[${p.at('requested_team').at('name').str()}](${p.at('requested_team').at('html_url').str()})`;
  const title = h.includeTitle ? ` ${pr.at('title').str()}` : '';
  return `**${sender(p)}** requested ${reviewer} for a review on [PR #${pr.at('number').int()}${title}](${pr.at('html_url').str()}).`;
}

export const ITEM_BODIES: Readonly<Record<string, Body>> = {
  closed_pull_request: closedPullRequest,
  issue_comment: issueComment,
  issue_labeled_or_unlabeled: (h) => {
    const item = h.payload.at('issue');
    const action = h.payload.at('action').str() === 'labeled' ? 'added' : 'removed';
    return issueLabelMessage(sender(h.payload), action, item.at('html_url').str(), item.at('number').int(), h.payload.at('label').at('name').str(), senderUrl(h.payload), titleIf(h, item));
  },
  issue_milestoned_or_demilestoned: (h) => {
    const item = h.payload.at('issue');
    const action = h.payload.at('action').str() === 'milestoned' ? 'added' : 'removed';
    const milestone = { name: h.payload.at('milestone').at('title').str(), url: h.payload.at('milestone').at('html_url').str() };
    return issueMilestoneMessage(sender(h.payload), action, item.at('html_url').str(), item.at('number').int(), milestone, senderUrl(h.payload), titleIf(h, item));
  },
  issues_opened_via_transfer: (h) => {
    const [item, changes] = [h.payload.at('issue'), h.payload.at('changes')];
    const old = changes.at('old_issue');
    return `[Issue #${item.at('number').int()} ${item.at('title').str()}](${item.at('html_url').str()}) was transferred from [${changes.at('old_repository').at('full_name').str()}#${old.at('number').int()}](${old.at('html_url').str()}).`;
  },
  issues_transferred: (h) => {
    const [item, changes] = [h.payload.at('issue'), h.payload.at('changes')];
    const next = changes.at('new_issue');
    return `${sender(h.payload)} transferred [issue #${item.at('number').int()} ${item.at('title').str()}](${item.at('html_url').str()}) to [${changes.at('new_repository').at('full_name').str()}/#${next.at('number').int()}](${next.at('html_url').str()}).`;
  },
  issues: issue,
  opened_pull_request: openedOrUpdatedPullRequest,
  updated_pull_request: openedOrUpdatedPullRequest,
  assigned_or_unassigned_pull_request: assignedPullRequest,
  pull_request_ready_for_review: pullRequestHeadline((who, n, url) => `**${who}** has marked [PR #${n}](${url}) as ready for review.`),
  pull_request_review: pullRequestReview,
  pull_request_review_comment: pullRequestReviewComment,
  pull_request_review_requested: reviewRequested,
  pull_request_auto_merge: (h) => {
    const verb = h.payload.at('action').str() === 'auto_merge_disabled' ? 'disabled' : 'enabled';
    return pullRequestHeadline((who, n, url) => `${who} has ${verb} auto merge for [PR #${n}](${url}).`)(h);
  },
  locked_or_unlocked_pull_request: lockedPullRequest,
};
