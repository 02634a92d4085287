// The GitHub integration's message bodies, one per Zulip event name (Zulip's
// zerver/webhooks/github/view.py EVENT_FUNCTION_MAPPER). github.ts picks the event and the topic.
import {
  commitCommentMessage,
  issueLabelMessage,
  issueMessage,
  issueMilestoneMessage,
  itemMessage,
  pushCommitsMessage,
  pushTagMessage,
  quoteBlock,
  releaseMessage,
  shortSha,
} from './git.js';
import { badRequest } from '../errors.js';
import { pythonStr, pythonStrRepr, rstripPython } from './python.js';
import { setupMessage } from './webhook.js';
import type { Wild } from './wild.js';

export interface Helper {
  payload: Wild;
  /** The `topic` parameter was given: bodies name the item's title. */
  includeTitle: boolean;
}

type Body = (helper: Helper) => string;

const sender = (p: Wild): string => p.at('sender').at('login').str();
const senderUrl = (p: Wild): string => p.at('sender').at('html_url').str();
const repoFullName = (p: Wild): string => p.at('repository').at('full_name').str();
const repoUrl = (p: Wild): string => p.at('repository').at('html_url').str();
const titleIf = (h: Helper, item: Wild): string | null => (h.includeTitle ? item.at('title').str() : null);
export const branchOf = (ref: string): string => ref.replace(/^refs\/heads\//, '');
const tagOf = (ref: string): string => ref.replace(/^refs\/tags\//, '');

/** "created" -> "[commented](url) on"; other actions -> "<action> a [comment](url) on". */
function commentAction(p: Wild): string {
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

function push(h: Helper): string {
  const p = h.payload;
  const commits = p.at('commits').items().map((commit) => {
    const author = commit.at('author');
    return {
      name: author.get('username').truthy ? author.at('username').str() : author.at('name').str(),
      sha: commit.at('id').str(),
      url: commit.at('url').str(),
      message: commit.at('message').str(),
    };
  });
  return pushCommitsMessage({
    userName: sender(p),
    compareUrl: p.at('compare').str(),
    branch: branchOf(p.at('ref').str()),
    commits,
    deleted: p.at('deleted').bool(),
    forced: p.at('forced').bool(),
  });
}

function teamEdited(h: Helper): string {
  const p = h.payload;
  const changes = p.at('changes');
  if (changes.has('description')) {
    return `**${sender(p)}** changed the team description to:\n${quoteBlock(p.at('team').at('description').str())}`;
  }
  if (changes.has('name')) return `Team \`${changes.at('name').at('from').str()}\` was renamed to \`${p.at('team').at('name').str()}\`.`;
  if (changes.has('privacy')) return `Team visibility changed to \`${p.at('team').at('privacy').str()}\``;
  return `Team has changes to \`${changes.keys().sort().join('/')}\` data.`;
}

function pageBuild(h: Helper): string {
  const build = h.payload.at('build');
  const status = build.at('status').str();
  const actions: Record<string, string> = { null: 'has yet to be built', building: 'is being built', errored: 'has failed: {}', built: 'has finished building' };
  let action = actions[status] ?? `is ${status}`;
  if (build.at('error').at('message').truthy) action = action.replace('{}', quoteBlock(build.at('error').at('message').str()));
  return `GitHub Pages build, triggered by ${build.at('pusher').at('login').str()}, ${action}.`;
}

function status(h: Helper): string {
  const p = h.payload;
  const state = p.at('target_url').truthy ? `[${p.at('state').str()}](${p.at('target_url').str()})` : p.at('state').str();
  return `[${shortSha(p.at('sha').str())}](${p.at('commit').at('html_url').str()}) changed its status to ${state}.`;
}

function checkRun(h: Helper): string {
  const run = h.payload.at('check_run');
  const sha = run.at('head_sha').str();
  return `Check [${run.at('name').str()}](${run.at('html_url').str()}) ${run.at('status').str()} (${run.at('conclusion').str()}). ([${shortSha(sha)}](${repoUrl(h.payload)}/commit/${sha}))`;
}

function release(h: Helper): string {
  const p = h.payload;
  const item = p.at('release');
  const tag = item.at('tag_name').str();
  const name = item.at('name').truthy ? item.at('name').str() : tag;
  return releaseMessage(sender(p), p.at('action').str(), tag, name, item.at('html_url').str());
}

function discussion(h: Helper): string {
  const d = h.payload.at('discussion');
  const body = `### ${d.at('title').str()}\n${d.at('body').str()}`;
  return `${sender(h.payload)} created [discussion #${d.at('number').int()}](${d.at('html_url').str()}) in ${d.at('category').at('name').str()}:\n${quoteBlock(body)}`;
}

function discussionComment(h: Helper): string {
  const d = h.payload.at('discussion');
  return itemMessage({
    userName: sender(h.payload),
    action: commentAction(h.payload),
    url: d.at('html_url').str(),
    number: d.at('number').int(),
    message: h.payload.at('comment').at('body').str(),
    title: titleIf(h, d),
    type: 'discussion',
  });
}

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

/** GitHub Sponsors' effective_date as Python's strftime("%B %d, %Y"). */
function effectiveDate(p: Wild): string {
  const text = p.at('effective_date').str().slice(0, 10);
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  const month = match ? MONTHS[Number(match[2]) - 1] : undefined;
  if (!match || month === undefined || Number(match[3]) < 1 || Number(match[3]) > 31) {
    throw badRequest(`time data ${pythonStrRepr(text)} does not match format '%Y-%m-%d'`);
  }
  return `${month} ${match[3]}, ${match[1]}`;
}

const tier = (p: Wild): string => p.at('sponsorship').at('tier').at('name').str();
const priorTier = (p: Wild): string => p.at('changes').at('tier').at('from').at('name').str();

export const GITHUB_BODIES: Readonly<Record<string, Body>> = {
  commit_comment: (h) => {
    const comment = h.payload.at('comment');
    const url = comment.at('html_url').str();
    return commitCommentMessage(sender(h.payload), `[commented](${url})`, url.split('#')[0]!, comment.at('commit_id').str(), comment.at('body').str());
  },
  closed_pull_request: closedPullRequest,
  create: (h) => rstripPython(`${sender(h.payload)} created ${h.payload.at('ref_type').str()} ${h.payload.at('ref').str()}.`),
  check_run: checkRun,
  delete: (h) => rstripPython(`${sender(h.payload)} deleted ${h.payload.at('ref_type').str()} ${h.payload.at('ref').str()}.`),
  deployment: (h) => `${sender(h.payload)} created new deployment.`,
  deployment_status: (h) => `Deployment changed status to ${h.payload.at('deployment_status').at('state').str()}.`,
  discussion,
  discussion_comment: discussionComment,
  fork: (h) => `${sender(h.payload)} forked [${h.payload.at('forkee').at('name').str()}](${h.payload.at('forkee').at('html_url').str()}).`,
  gollum: (h) => {
    const pages = h.payload
      .at('pages')
      .items()
      .map((page) => `* ${page.at('action').str()} [${page.at('title').str()}](${page.at('html_url').str()})\n`)
      .join('');
    return `${sender(h.payload)}:\n${rstripPython(pages)}`;
  },
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
  member: (h) => {
    const member = h.payload.at('member');
    return `${sender(h.payload)} ${h.payload.at('action').str()} [${member.at('login').str()}](${member.at('html_url').str()}) to [${h.payload.at('repository').at('name').str()}](${repoUrl(h.payload)}).`;
  },
  membership: (h) => {
    const action = h.payload.at('action').str();
    const member = h.payload.at('member');
    return `${sender(h.payload)} ${action} [${member.at('login').str()}](${member.at('html_url').str()}) ${action === 'removed' ? 'from' : 'to'} the ${h.payload.at('team').at('name').str()} team.`;
  },
  opened_pull_request: openedOrUpdatedPullRequest,
  updated_pull_request: openedOrUpdatedPullRequest,
  assigned_or_unassigned_pull_request: assignedPullRequest,
  page_build: pageBuild,
  ping: (h) => setupMessage('GitHub', sender(h.payload)),
  public: (h) => `${sender(h.payload)} made the repository [${repoFullName(h.payload)}](${repoUrl(h.payload)}) public.`,
  pull_request_ready_for_review: pullRequestHeadline((who, n, url) => `**${who}** has marked [PR #${n}](${url}) as ready for review.`),
  pull_request_review: pullRequestReview,
  pull_request_review_comment: pullRequestReviewComment,
  pull_request_review_requested: reviewRequested,
  pull_request_auto_merge: (h) => {
    const verb = h.payload.at('action').str() === 'auto_merge_disabled' ? 'disabled' : 'enabled';
    return pullRequestHeadline((who, n, url) => `${who} has ${verb} auto merge for [PR #${n}](${url}).`)(h);
  },
  locked_or_unlocked_pull_request: lockedPullRequest,
  push_commits: push,
  push_tags: (h) => pushTagMessage(sender(h.payload), tagOf(h.payload.at('ref').str()), h.payload.at('created').bool() ? 'pushed' : 'removed'),
  release,
  repository: (h) => `${sender(h.payload)} ${h.payload.at('action').str()} the repository [${repoFullName(h.payload)}](${repoUrl(h.payload)}).`,
  star: (h) => {
    const verb = h.payload.at('action').str() === 'created' ? 'starred' : 'unstarred';
    return `[${sender(h.payload)}](${senderUrl(h.payload)}) ${verb} the repository [${repoFullName(h.payload)}](${repoUrl(h.payload)}).`;
  },
  status,
  team: teamEdited,
  team_add: (h) => `The repository [${repoFullName(h.payload)}](${repoUrl(h.payload)}) was added to team ${h.payload.at('team').at('name').str()}.`,
  watch: (h) => `${sender(h.payload)} starred the repository [${repoFullName(h.payload)}](${repoUrl(h.payload)}).`,
  cancelled: (h) => `${sender(h.payload)} cancelled their ${tier(h.payload)} subscription.`,
  created: (h) => `${sender(h.payload)} subscribed for ${tier(h.payload)}.`,
  edited: (h) =>
    `${sender(h.payload)} changed who can see their sponsorship from ${h.payload.at('changes').at('privacy_level').at('from').str()} to ${h.payload.at('sponsorship').at('privacy_level').str()}.`,
  pending_cancellation: (h) => `${sender(h.payload)}'s ${tier(h.payload)} subscription will be cancelled on ${effectiveDate(h.payload)}.`,
  pending_tier_change: (h) => `${sender(h.payload)}'s subscription will change from ${priorTier(h.payload)} to ${tier(h.payload)} on ${effectiveDate(h.payload)}.`,
  tier_changed: (h) => `${sender(h.payload)} changed their subscription from ${priorTier(h.payload)} to ${tier(h.payload)}.`,
};

export const SPONSORS_EVENTS = ['cancelled', 'created', 'edited', 'pending_cancellation', 'pending_tier_change', 'tier_changed'];
