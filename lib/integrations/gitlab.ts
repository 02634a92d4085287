// The GitLab integration (Zulip's zerver/webhooks/gitlab/view.py): the X-GitLab-Event header, with
// the object's action or note type, names the event (gitlab_bodies.ts writes each). URL
// parameters: `branches`, `use_merge_request_title` (default true). https://zulip.com/integrations/gitlab
import { branchWanted, topicWithItem } from './git.js';
import { branchName, GITLAB_BODIES, homepage, repoName } from './gitlab_bodies.js';
import { BRANCHES_OPTION, requireHeader, UnsupportedEvent, type Integration, type WebhookInput, type WebhookMessage } from './webhook.js';
import type { Wild } from './wild.js';

/** Zulip's get_topic_based_on_event. */
function topicOf(event: string, p: Wild, useMergeRequestTitle: boolean): string {
  if (event === 'Push Hook') return `${repoName(p)} / ${branchName(p)}`;
  if (event === 'Job Hook' || event === 'Build Hook') return `${p.at('repository').at('name').str()} / ${branchName(p)}`;
  if (event === 'Pipeline Hook') return `${repoName(p)} / ${p.at('object_attributes').at('ref').str().replaceAll('refs/heads/', '')}`;
  if (event.startsWith('Merge Request Hook')) {
    const mr = p.at('object_attributes');
    return topicWithItem(repoName(p), 'MR', mr.at('iid').int(), useMergeRequestTitle ? mr.at('title').str() : '');
  }
  if (event.startsWith('Issue Hook') || event.startsWith('Confidential Issue Hook')) {
    return topicWithItem(repoName(p), 'issue', p.at('object_attributes').at('iid').int(), p.at('object_attributes').at('title').str());
  }
  if (event === 'Note Hook Issue' || event === 'Confidential Note Hook Issue') {
    return topicWithItem(repoName(p), 'issue', p.at('issue').at('iid').int(), p.at('issue').at('title').str());
  }
  if (event.endsWith('Note Hook DesignManagement::Design')) {
    return `${repoName(p)} / design ${p.at('object_attributes').at('position').at('new_path').str().split('/').at(-1)}`;
  }
  if (event === 'Note Hook MergeRequest') {
    const mr = p.at('merge_request');
    return topicWithItem(repoName(p), 'MR', mr.at('iid').int(), useMergeRequestTitle ? mr.at('title').str() : '');
  }
  if (event === 'Note Hook Snippet') return topicWithItem(repoName(p), 'snippet', p.at('snippet').at('id').int(), p.at('snippet').at('title').str());
  if (event === 'Resource Access Token Hook' && p.get('group').truthy) return p.at('group').at('group_name').str();
  if (event === 'Deployment Hook') return `${repoName(p)} / ${p.at('environment').str()}`;
  return repoName(p);
}

/** Zulip's get_event: null for a push to a branch the `branches` parameter leaves out. */
function eventOf(input: WebhookInput, p: Wild): string | null {
  let event = requireHeader(input, 'X-GitLab-Event');
  if (event === 'System Hook') {
    const name = p.has('event_name') ? p.at('event_name').str() : p.at('object_kind').str();
    // Python's str.title() on "merge_request": "Merge Request".
    const title = name.split('__')[0]!.replace(/_/g, ' ').toLowerCase().replace(/(^|[^a-z])([a-z])/g, (_, before: string, letter: string) => before + letter.toUpperCase());
    event = `${title} Hook`;
  }
  if (['Confidential Issue Hook', 'Issue Hook', 'Merge Request Hook', 'Wiki Page Hook'].includes(event)) {
    event = `${event} ${p.at('object_attributes').get('action', 'open').str()}`;
  } else if (event === 'Confidential Note Hook' || event === 'Note Hook') {
    event = `${event} ${p.at('object_attributes').at('noteable_type').str()}`;
  } else if (event === 'Push Hook' && !branchWanted(branchName(p), input.text('branches'))) {
    return null;
  }
  if (Object.hasOwn(GITLAB_BODIES, event)) return event;
  throw new UnsupportedEvent(event);
}

function handle(input: WebhookInput): WebhookMessage[] {
  const p = input.payload();
  const event = eventOf(input, p);
  if (event === null) return [];
  const includeTitle = input.userTopic !== undefined;
  let content = GITLAB_BODIES[event]!(p, includeTitle);
  // With a custom topic the message names its project.
  if (input.userTopic) content = `[[${repoName(p)}](${homepage(p)})] ${content}`;
  return [{ topic: topicOf(event, p, input.flag('use_merge_request_title', true)), content, eventType: event }];
}

export const gitlab: Integration = {
  name: 'gitlab',
  displayName: 'GitLab',
  webhookName: 'GitLab',
  events: Object.keys(GITLAB_BODIES),
  urlOptions: [
    BRANCHES_OPTION,
    { name: 'use_merge_request_title', label: 'Include merge request titles in topics', kind: 'bool' },
  ],
  handle,
};
