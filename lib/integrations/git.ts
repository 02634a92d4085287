// The messages Zulip's Git integrations share (zerver/lib/webhooks/git.py): pushes with their
// commit lists, pull/merge requests and issues, comments, tags and releases.
import { rstripPython } from './python.js';

export const EMPTY_SHA = '0000000000000000000000000000000000000000';
/** Commits listed in a push message; the rest are counted. */
export const COMMITS_LIMIT = 20;
/** Committers named in a push message; the rest are "others". */
const COMMITTERS_LIMIT = 3;

/** Python's string.punctuation: a title ending in one gets no extra punctuation. */
const PUNCTUATION = new Set('!"#$%&\'()*+,-./:;<=>?@[\\]^_`{|}~');
const endsInPunctuation = (text: string): boolean => text.length > 0 && PUNCTUATION.has(text[text.length - 1]!);

export const quoteBlock = (message: string): string => `\n~~~ quote\n${message}\n~~~`;

export function topicWithBranch(repo: string, branch: string): string {
  return `${repo} / ${branch}`;
}

export function topicWithItem(repo: string, type: string, id: number | string, title: string): string {
  return `${repo} / ${type} #${id} ${title}`;
}

/** Zulip's get_short_sha. */
export const shortSha = (sha: string): string => sha.slice(0, 11);

export interface CommitData {
  name: string;
  sha: string;
  url: string | null;
  message: string;
}

/** Zulip's get_all_committers: by commit count, then name; past three, "others". */
function committers(commits: readonly CommitData[]): [string, number][] {
  const counts = new Map<string, number>();
  for (const commit of commits) counts.set(commit.name, (counts.get(commit.name) ?? 0) + 1);
  const items = [...counts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  if (items.length <= COMMITTERS_LIMIT) return items;
  const others = items.slice(COMMITTERS_LIMIT).reduce((sum, [, count]) => sum + count, 0);
  return [...items.slice(0, COMMITTERS_LIMIT), ['others', others]];
}

/** Zulip's get_commits_content: a bullet per commit (first line of its message), at most 20. */
function commitsContent(commits: readonly CommitData[], truncated: boolean): string {
  let content = '';
  for (const commit of commits.slice(0, COMMITS_LIMIT)) {
    content += `* ${commit.message.split('\n')[0]} ([${shortSha(commit.sha)}](${commit.url ?? 'None'}))\n`;
  }
  if (commits.length > COMMITS_LIMIT) content += `[and ${commits.length - COMMITS_LIMIT} more commit(s)]`;
  else if (truncated) content += '[and more commit(s)]';
  return rstripPython(content);
}

export interface PushMessage {
  userName: string;
  compareUrl: string | null;
  branch: string;
  commits: readonly CommitData[];
  truncated?: boolean;
  deleted?: boolean;
  forced?: boolean;
}

/** Zulip's get_push_commits_event_message. */
export function pushCommitsMessage(push: PushMessage): string {
  const { userName, compareUrl, branch, commits } = push;
  if (commits.length === 0 && push.deleted) return `${userName} [deleted](${compareUrl}) the branch ${branch}.`;
  const pushType = push.forced ? 'force pushed' : 'pushed';
  if (commits.length === 0) {
    return compareUrl ? `${userName} [${pushType}](${compareUrl}) the branch ${branch}.` : `${userName} ${pushType} the branch ${branch}.`;
  }
  const count = `${commits.length} commit${commits.length > 1 ? 's' : ''}`;
  const pushed = compareUrl ? `[${pushType}](${compareUrl}) ${count}` : `${pushType} ${count}`;
  const base = `${userName} ${pushed} to branch ${branch}.`;
  const byCommitter = committers(commits);
  const list = commitsContent(commits, push.truncated ?? false);
  if (byCommitter.length === 1 && byCommitter[0]![0] === userName) return rstripPython(`${base}\n\n${list}\n`);
  let details = `${byCommitter[0]![0]} (${byCommitter[0]![1]})`;
  for (const [name, count] of byCommitter.slice(1, -1)) details += `, ${name} (${count})`;
  if (byCommitter.length > 1) details += ` and ${byCommitter.at(-1)![0]} (${byCommitter.at(-1)![1]})`;
  return rstripPython(`${base} Commits by ${details}.\n\n${list}\n`);
}

export const removeBranchMessage = (userName: string, branch: string): string => `${userName} deleted branch ${branch}.`;

export function createBranchMessage(userName: string, url: string | null, branch: string): string {
  return url === null ? `${userName} created ${branch} branch.` : `${userName} created [${branch}](${url}) branch.`;
}

export interface ItemMessage {
  userName: string;
  action: string;
  url: string;
  number?: number | null | undefined;
  /** The head and base branches of a pull request ("from `head` to `base`"). */
  targetBranch?: string | null | undefined;
  baseBranch?: string | null | undefined;
  /** The body, quoted below. */
  message?: string | null | undefined;
  assignee?: string | null | undefined;
  /** Assignees' names (GitLab): "A, B and C". */
  assignees?: readonly string[] | undefined;
  /** Whom an assigned / unassigned action was about ("assigned X to", "unassigned X from"). */
  assigneeUpdated?: string | null | undefined;
  reviewer?: string | null | undefined;
  type?: string;
  /** Given when the `topic` parameter hides the usual topic: the item's title is named. */
  title?: string | null | undefined;
}

const ACTION_WORDS: Readonly<Record<string, string>> = { approval: 'added their approval for', unapproval: 'removed their approval for' };

function assigneeList(names: readonly string[]): string {
  return names.length === 1 ? names[0]! : `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;
}

/** Zulip's get_pull_request_event_message (issues are the same with type "issue"). */
export function itemMessage(item: ItemMessage): string {
  const action = item.action;
  const title = item.title ?? null;
  const updated = action === 'assigned' ? ` ${item.assigneeUpdated} to` : action === 'unassigned' ? ` ${item.assigneeUpdated} from` : '';
  const id = item.number !== undefined && item.number !== null ? ` #${item.number}` : '';
  let main = `${item.userName} ${ACTION_WORDS[action] ?? action}${updated} [${item.type ?? 'PR'}${id}${title !== null ? ` ${title}` : ''}](${item.url})`;
  const branches = Boolean(item.targetBranch && item.baseBranch);
  if (branches) main += ` from \`${item.targetBranch}\` to \`${item.baseBranch}\``;
  const assignees = item.assignees !== undefined && item.assignees.length > 0;
  if (assignees) main += ` (assigned to ${assigneeList(item.assignees!)})`;
  else if (item.assignee) main += ` (assigned to ${item.assignee})`;
  else if (item.reviewer) main += ` (assigned reviewers: ${item.reviewer})`;
  const punctuation = item.message ? ':' : '.';
  if (assignees || item.assignee || branches || title === null || !endsInPunctuation(title)) main += punctuation;
  if (item.message) main += `\n${quoteBlock(item.message)}`;
  return rstripPython(main);
}

export function issueMessage(item: Omit<ItemMessage, 'type' | 'targetBranch' | 'baseBranch' | 'reviewer'>): string {
  return itemMessage({ ...item, type: 'issue' });
}

/** Zulip's get_issue_labeled_or_unlabeled_event_message. */
export function issueLabelMessage(userName: string, action: 'added' | 'removed', url: string, number: number, label: string, userUrl: string, title: string | null): string {
  const preposition = action === 'added' ? 'to' : 'from';
  return `[${userName}](${userUrl}) ${action} the ${label} label ${preposition} [Issue #${number}${title !== null ? ` ${title}` : ''}](${url}).`;
}

/** Zulip's get_issue_milestoned_or_demilestoned_event_message. */
export function issueMilestoneMessage(
  userName: string,
  action: 'added' | 'removed',
  url: string,
  number: number,
  milestone: { name: string; url: string },
  userUrl: string,
  title: string | null,
): string {
  const preposition = action === 'added' ? 'to' : 'from';
  return `[${userName}](${userUrl}) ${action} milestone [${milestone.name}](${milestone.url}) ${preposition} [issue #${number}${title !== null ? ` ${title}` : ''}](${url}).`;
}

/** Zulip's get_push_tag_event_message. */
export function pushTagMessage(userName: string, tag: string, action = 'pushed', tagUrl?: string | null): string {
  const message = `${userName} ${action} tag ${tagUrl ? `[${tag}](${tagUrl})` : tag}`;
  return endsInPunctuation(tag) ? message : `${message}.`;
}

/** Zulip's get_commits_comment_action_message. */
export function commitCommentMessage(userName: string, action: string, commitUrl: string, sha: string, message: string | null): string {
  const content = `${userName} ${action} on [${shortSha(sha)}](${commitUrl})${message ? ':' : '.'}`;
  return message ? content + quoteBlock(message) : content;
}

/** Zulip's get_release_event_message. */
export function releaseMessage(userName: string, action: string, tag: string, releaseName: string, url: string): string {
  return `${userName} ${action} release [${releaseName}](${url}) for tag ${tag}.`;
}

/** Zulip's is_branch_name_notifiable: the `branches` parameter is a comma-separated list. */
export function branchWanted(branch: string, branches: string | undefined): boolean {
  return branches === undefined || branches.split(',').some((name) => name.trim() === branch);
}
