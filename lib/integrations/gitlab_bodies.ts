// The GitLab integration's message bodies, one per event (Zulip's zerver/webhooks/gitlab/view.py
// EVENT_FUNCTION_MAPPER); gitlab.ts names the event and the topic.
import { badRequest } from '../errors.js';
import { commitCommentMessage, EMPTY_SHA, issueMessage, itemMessage, pushCommitsMessage, pushTagMessage, quoteBlock, removeBranchMessage } from './git.js';
import { rstripPython } from './python.js';
import type { Wild } from './wild.js';

type Body = (p: Wild, includeTitle: boolean) => string;

const userName = (p: Wild): string => p.at('user_name').str();
const issueUserName = (p: Wild): string => p.at('user').at('name').str();
export const repoName = (p: Wild): string => (p.has('project') ? p.at('project').at('name').str() : p.at('repository').at('name').str());
export const homepage = (p: Wild): string => (p.has('project') ? p.at('project').at('web_url').str() : p.at('repository').at('homepage').str());
export const branchName = (p: Wild): string => p.at('ref').str().replaceAll('refs/heads/', '');
const titleIf = (includeTitle: boolean, item: Wild): string | null => (includeTitle ? item.at('title').str() : null);

/** Zulip's get_assignees + replace_assignees_username_with_name: the assignees' names. */
function assigneeNames(p: Wild): string[] {
  const many = p.get('assignees');
  const list = many.truthy ? many.items() : p.get('assignee').truthy ? [p.at('assignee')] : [];
  return list.map((assignee) => assignee.at('name').str());
}

function push(p: Wild): string {
  const after = p.get('after');
  if (after.truthy && after.str() === EMPTY_SHA) return removeBranchMessage(userName(p), branchName(p));
  const commits = p.at('commits').items().map((commit) => ({
    name: commit.at('author').at('name').str(),
    sha: commit.at('id').str(),
    message: commit.at('message').str(),
    url: commit.at('url').str(),
  }));
  const compareUrl = `${homepage(p)}/-/compare/${p.at('before').str()}...${p.at('after').str()}`;
  return pushCommitsMessage({ userName: userName(p), compareUrl, branch: branchName(p), commits });
}

const issueEvent =
  (action: string): Body =>
  (p, includeTitle) =>
    issueMessage({
      userName: issueUserName(p),
      action,
      url: p.at('object_attributes').at('url').str(),
      number: p.at('object_attributes').at('iid').int(),
      title: titleIf(includeTitle, p.at('object_attributes')),
    });

function issueCreated(p: Wild, includeTitle: boolean): string {
  const description = p.at('object_attributes').get('description');
  // Hidden comments (<!-- ... -->) are left out.
  const text = description.truthy ? rstripPython(description.str().replace(/<!--[\s\S]*?-->/g, '')) : null;
  return issueMessage({
    userName: issueUserName(p),
    action: 'created',
    url: p.at('object_attributes').at('url').str(),
    number: p.at('object_attributes').at('iid').int(),
    message: text,
    assignees: assigneeNames(p),
    title: titleIf(includeTitle, p.at('object_attributes')),
  });
}

/**
 * Zulip's get_merge_request_event_body (a plain action) and, with `details`,
 * get_merge_request_open_or_updated_body (the description and assignees too). Merged and created
 * merge requests name their branches.
 */
const mergeRequestEvent =
  (action: string, details = false): Body =>
  (p, includeTitle) => {
    const mr = p.at('object_attributes');
    const branches = action === 'merged' || action === 'created';
    return itemMessage({
      userName: issueUserName(p),
      action,
      url: mr.at('url').str(),
      number: mr.at('iid').int(),
      targetBranch: branches ? mr.at('source_branch').str() : null,
      baseBranch: branches ? mr.at('target_branch').str() : null,
      message: details ? mr.at('description').strOrNone() : null,
      assignees: details ? assigneeNames(p) : undefined,
      type: 'MR',
      title: titleIf(includeTitle, mr),
    });
  };

const mergeRequestUpdated: Body = (p, includeTitle) =>
  p.at('object_attributes').get('oldrev').truthy ? mergeRequestEvent('added commit(s) to')(p, includeTitle) : mergeRequestEvent('updated', true)(p, includeTitle);

/** A note (comment) on a merge request, issue or snippet. */
function noteOn(p: Wild, includeTitle: boolean, on: Wild, type: string, url: string, number: number): string {
  const comment = p.at('object_attributes');
  return itemMessage({
    userName: issueUserName(p),
    action: `[commented](${comment.at('url').str()}) on`,
    url,
    number,
    message: comment.at('note').str(),
    type,
    title: titleIf(includeTitle, on),
  });
}

function designNote(p: Wild): string {
  const comment = p.at('object_attributes');
  const path = comment.at('position').at('new_path').str();
  const parts = path.split('/');
  // Zulip unpacks "designs/issue-1/<name>" into exactly three parts.
  if (parts.length !== 3) throw badRequest(`not enough values to unpack (expected 3, got ${parts.length})`);
  const [, issuePart, design] = parts as [string, string, string];
  const designUrl = `${p.at('repository').at('homepage').str()}/-/issues/${issuePart.split('-').at(-1)}/designs/${design}`;
  const action = `[commented](${designUrl}#note_${comment.at('id').int()})`;
  return `${issueUserName(p)} ${action} on design [${design}](${designUrl}):\n${quoteBlock(comment.at('note').str())}`;
}

function snippetNote(p: Wild, includeTitle: boolean): string {
  const snippet = p.at('snippet');
  const url = snippet.has('url') ? snippet.at('url').str() : `${p.at('project').at('web_url').str()}/-/snippets/${snippet.at('id').int()}`;
  return noteOn(p, includeTitle, snippet, 'snippet', url, snippet.at('id').int());
}

function build(p: Wild): string {
  const status = p.at('build_status').str();
  const action = status === 'created' ? 'was created' : status === 'running' ? 'started' : `changed status to ${status}`;
  return `Build ${p.at('build_name').str()} from ${p.at('build_stage').str()} stage ${action}.`;
}

function pipeline(p: Wild): string {
  const attributes = p.at('object_attributes');
  const status = attributes.at('status').str();
  const action = status === 'pending' ? 'was created' : status === 'running' ? 'started' : `changed status to ${status}`;
  const id = attributes.at('id').int();
  let builds = '';
  for (const job of p.at('builds').items()) {
    const jobUrl = `${homepage(p)}/-/jobs/${job.at('id').int()}`;
    const artifact = job.get('artifacts_file', {}).get('filename');
    const artifactLine = artifact.truthy
      ? `  * built artifact: *${artifact.str()}* [[Browse](${jobUrl}/artifacts/browse)|[Download](${jobUrl}/artifacts/download)]\n`
      : '';
    builds += `* [${job.at('name').str()}](${jobUrl}) - ${job.at('status').str()}\n${artifactLine}`;
  }
  return `[Pipeline (${id})](${homepage(p)}/-/pipelines/${id}) ${action} with build(s):\n${builds.slice(0, -1)}.`;
}

function release(p: Wild): string {
  const action = p.at('action').str();
  const [name, tag] = [p.at('name').str(), p.at('tag').str()];
  if (action === 'delete') return `Release ${name} for tag ${tag} was ${action}d.`;
  const body = `Release [${name}](${p.at('url').str()}) for tag ${tag} was ${action}d.`;
  return p.has('description') ? body + quoteBlock(p.at('description').str()) : body;
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

function accessTokenExpiry(p: Wild): string {
  const token = p.at('object_attributes');
  const text = token.at('expires_at').str();
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  const month = match ? MONTHS[Number(match[2]) - 1] : undefined;
  if (!match || month === undefined) throw badRequest(`time data '${text}' does not match format '%Y-%m-%d'`);
  const page = p.has('group')
    ? `https://gitlab.com/groups/${p.at('group').at('group_path').str()}/-/settings/access_tokens`
    : `${p.at('project').at('web_url').str()}/-/settings/access_tokens`;
  return `The access token [${token.at('name').str()}](${page}) will expire on ${month} ${match[3]}, ${match[1]}.`;
}

function deployment(p: Wild): string {
  const user = `[${p.at('user').at('name').str()}](${p.at('user_url').str()})`;
  const deployableUrl = p.get('deployable_url', '').str();
  const what = deployableUrl ? `[deployment](${deployableUrl})` : 'deployment';
  const commitUrl = p.at('commit_url').str();
  const bodies: Record<string, string> = {
    running: `${user} started a new ${what}:\n> [${commitUrl.split('/').at(-1)!.slice(0, 7)}](${commitUrl}) ${p.at('commit_title').str()}`,
    success: `The ${what} was successful.`,
    failed: `The ${what} failed.`,
    canceled: `The ${what} was canceled.`,
  };
  return bodies[p.at('status').oneOf(['running', 'success', 'failed', 'canceled'])]!;
}

export const GITLAB_BODIES: Readonly<Record<string, Body>> = {
  'Push Hook': push,
  'Tag Push Hook': (p) => pushTagMessage(userName(p), p.at('ref').str().replaceAll('refs/tags/', ''), p.get('checkout_sha').truthy ? 'pushed' : 'removed'),
  'Test Hook': (p) => `Webhook for **${repoName(p)}** has been configured successfully! :tada:`,
  'Issue Hook open': issueCreated,
  'Issue Hook close': issueEvent('closed'),
  'Issue Hook reopen': issueEvent('reopened'),
  'Issue Hook update': issueEvent('updated'),
  'Confidential Issue Hook open': issueCreated,
  'Confidential Issue Hook close': issueEvent('closed'),
  'Confidential Issue Hook reopen': issueEvent('reopened'),
  'Confidential Issue Hook update': issueEvent('updated'),
  'Note Hook Commit': (p) => {
    const comment = p.at('object_attributes');
    return commitCommentMessage(issueUserName(p), `[commented](${comment.at('url').str()})`, p.at('commit').at('url').str(), p.at('commit').at('id').str(), comment.at('note').str());
  },
  'Note Hook MergeRequest': (p, t) => noteOn(p, t, p.at('merge_request'), 'MR', p.at('merge_request').at('url').str(), p.at('merge_request').at('iid').int()),
  'Note Hook Issue': (p, t) => noteOn(p, t, p.at('issue'), 'issue', p.at('issue').at('url').str(), p.at('issue').at('iid').int()),
  'Confidential Note Hook Issue': (p, t) => noteOn(p, t, p.at('issue'), 'issue', p.at('issue').at('url').str(), p.at('issue').at('iid').int()),
  'Note Hook DesignManagement::Design': designNote,
  'Confidential Note Hook DesignManagement::Design': designNote,
  'Note Hook Snippet': snippetNote,
  'Merge Request Hook approved': mergeRequestEvent('approved'),
  'Merge Request Hook unapproved': mergeRequestEvent('unapproved'),
  'Merge Request Hook approval': mergeRequestEvent('approval'),
  'Merge Request Hook unapproval': mergeRequestEvent('unapproval'),
  'Merge Request Hook open': mergeRequestEvent('created', true),
  'Merge Request Hook update': mergeRequestUpdated,
  'Merge Request Hook merge': mergeRequestEvent('merged'),
  'Merge Request Hook close': mergeRequestEvent('closed'),
  'Merge Request Hook reopen': mergeRequestEvent('reopened'),
  'Wiki Page Hook create': (p) => `${issueUserName(p)} created [wiki page "${p.at('object_attributes').at('title').str()}"](${p.at('object_attributes').at('url').str()}).`,
  'Wiki Page Hook update': (p) => `${issueUserName(p)} updated [wiki page "${p.at('object_attributes').at('title').str()}"](${p.at('object_attributes').at('url').str()}).`,
  'Job Hook': build,
  'Build Hook': build,
  'Pipeline Hook': pipeline,
  'Release Hook': release,
  'Feature Flag Hook': (p) => {
    const flag = p.at('object_attributes');
    return `${p.at('user').at('username').str()} ${flag.at('active').truthy ? 'activated' : 'deactivated'} the feature flag [${flag.at('name').str()}](${p.at('project').at('web_url').str()}/-/feature_flags).`;
  },
  'Resource Access Token Hook': accessTokenExpiry,
  'Deployment Hook': deployment,
};
