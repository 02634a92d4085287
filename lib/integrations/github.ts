// The GitHub integration (Zulip's zerver/webhooks/github/view.py): the X-GitHub-Event header and
// the payload's action name a Zulip event, which picks the topic and the body (github_bodies.ts).
// URL parameters: `branches` (push events of other branches post nothing) and
// `ignore_private_repositories`. https://zulip.com/integrations/github
import { branchWanted, topicWithBranch, topicWithItem } from './git.js';
import { branchOf, GITHUB_BODIES, SPONSORS_EVENTS } from './github_bodies.js';
import { BRANCHES_OPTION, requireHeader, UnsupportedEvent, type Integration, type WebhookInput, type WebhookMessage } from './webhook.js';
import type { Wild } from './wild.js';

/** Events GitHub sends that post nothing (Zulip's IGNORED_EVENTS). */
const IGNORED_EVENTS = ['check_suite', 'label', 'meta', 'milestone', 'organization', 'project_card', 'push__merge_queue', 'repository_vulnerability_alert'];
const IGNORED_PULL_REQUEST_ACTIONS = ['approved', 'converted_to_draft', 'labeled', 'review_request_removed', 'unlabeled'];
const IGNORED_TEAM_ACTIONS = ['added_to_repository', 'created', 'deleted', 'removed_from_repository'];

const PULL_REQUEST_EVENTS: Readonly<Record<string, string>> = {
  opened: 'opened_pull_request',
  reopened: 'opened_pull_request',
  synchronize: 'updated_pull_request',
  edited: 'updated_pull_request',
  assigned: 'assigned_or_unassigned_pull_request',
  unassigned: 'assigned_or_unassigned_pull_request',
  closed: 'closed_pull_request',
  review_requested: 'pull_request_review_requested',
  ready_for_review: 'pull_request_ready_for_review',
  locked: 'locked_or_unlocked_pull_request',
  unlocked: 'locked_or_unlocked_pull_request',
  auto_merge_enabled: 'pull_request_auto_merge',
  auto_merge_disabled: 'pull_request_auto_merge',
};

/** Zulip's get_zulip_event_name: null for an event GitHub sends that posts nothing. */
function zulipEventName(header: string, p: Wild, branches: string | undefined): string | null {
  if (header === 'pull_request') {
    const action = p.at('action').str();
    if (PULL_REQUEST_EVENTS[action]) return PULL_REQUEST_EVENTS[action];
    if (IGNORED_PULL_REQUEST_ACTIONS.includes(action)) return null;
  } else if (header === 'pull_request_review') {
    // GitHub sends an empty "edited" review after the submitted one.
    if (p.at('action').str() === 'edited' && p.get('changes', {}).keys().length === 0) return null;
    return 'pull_request_review';
  } else if (header === 'push') {
    const ref = p.at('ref').str();
    if (ref.startsWith('refs/heads/gh-readonly-queue/')) return null;
    if (!ref.startsWith('refs/heads/')) return 'push_tags';
    return branchWanted(branchOf(ref), branches) ? 'push_commits' : null;
  } else if (header === 'check_run') {
    return p.at('check_run').at('status').str() === 'completed' ? 'check_run' : null;
  } else if (header === 'team') {
    const action = p.at('action').str();
    if (action === 'edited') return 'team';
    if (IGNORED_TEAM_ACTIONS.includes(action)) return null;
    throw new UnsupportedEvent(`unsupported team action ${action}`);
  } else if (header === 'issues') {
    const action = p.at('action').str();
    if (action === 'labeled' || action === 'unlabeled') return 'issue_labeled_or_unlabeled';
    if (action === 'milestoned' || action === 'demilestoned') return 'issue_milestoned_or_demilestoned';
    if (action === 'transferred') return 'issues_transferred';
    if (action === 'opened' && p.get('changes', {}).get('old_issue').truthy) return 'issues_opened_via_transfer';
    return 'issues';
  } else if (Object.hasOwn(GITHUB_BODIES, header)) return header;
  else if (IGNORED_EVENTS.includes(header)) return null;
  throw new UnsupportedEvent(`${header}:${p.get('action', '???').str()}`);
}

const repoName = (p: Wild): string => p.at('repository').at('name').str();

/** Zulip's get_topic_based_on_type. */
function topicOf(p: Wild, event: string): string {
  if (event.includes('pull_request')) {
    const pr = p.at('pull_request');
    return topicWithItem(repoName(p), 'PR', pr.at('number').int(), pr.at('title').str());
  }
  if (event.startsWith('issue')) {
    const item = p.at('issue');
    return topicWithItem(repoName(p), item.has('pull_request') ? 'PR' : 'issue', item.at('number').int(), item.at('title').str());
  }
  if (event.startsWith('deployment')) return `${repoName(p)} / Deployment on ${p.at('deployment').at('environment').str()}`;
  if (event === 'membership') return `${p.at('organization').at('login').str()} organization`;
  if (event === 'team') return `team ${p.at('team').at('name').str()}`;
  if (event === 'push_commits') return topicWithBranch(repoName(p), branchOf(p.at('ref').str()));
  if (event === 'gollum') return topicWithBranch(repoName(p), 'wiki pages');
  if (event === 'ping' && !p.get('repository').truthy) return p.at('organization').at('login').str();
  if (event === 'check_run') return `${repoName(p)} / checks`;
  if (event.startsWith('discussion')) {
    const d = p.at('discussion');
    return `${repoName(p)} discussion #${d.at('number').int()}: ${d.at('title').str()}`;
  }
  if (SPONSORS_EVENTS.includes(event)) return 'sponsors';
  return repoName(p);
}

function handle(input: WebhookInput): WebhookMessage[] {
  const header = requireHeader(input, 'X-GitHub-Event');
  const p = input.payload();
  // Evaluated in Zulip's order: a repository without `private` is an error even when the option is off.
  if (p.has('repository') && p.at('repository').at('private').bool() && input.flag('ignore_private_repositories', false)) return [];
  // A comment edit that left the text as it was (discussion comments excepted).
  if (
    header.includes('comment') &&
    !header.includes('discussion') &&
    p.get('action', '').str() === 'edited' &&
    p.at('changes').at('body').at('from').str() === p.at('comment').at('body').str()
  ) {
    return [];
  }
  const event = zulipEventName(header, p, input.text('branches'));
  if (event === null) return [];
  const content = GITHUB_BODIES[event]!({ payload: p, includeTitle: input.userTopic !== undefined });
  return [{ topic: topicOf(p, event), content, eventType: event }];
}

export const github: Integration = {
  name: 'github',
  displayName: 'GitHub',
  webhookName: 'GitHub',
  events: Object.keys(GITHUB_BODIES),
  urlOptions: [
    BRANCHES_OPTION,
    { name: 'ignore_private_repositories', label: 'Exclude notifications from private repositories', kind: 'bool' },
  ],
  handle,
};
