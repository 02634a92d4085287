// The GitHub integration's message bodies, one per Zulip event name (Zulip's
// zerver/webhooks/github/view.py EVENT_FUNCTION_MAPPER); pull requests, issues and comments are in
// github_items.ts. github.ts picks the event and the topic.
import { badRequest } from '../errors.js';
import { commitCommentMessage, itemMessage, pushCommitsMessage, pushTagMessage, quoteBlock, releaseMessage, shortSha } from './git.js';
import { commentAction, ITEM_BODIES, repoFullName, repoUrl, sender, senderUrl, tagOf, titleIf, type Body, type Helper } from './github_items.js';
import { pythonStrRepr, rstripPython } from './python.js';
import { setupMessage } from './webhook.js';
import type { Wild } from './wild.js';

export const branchOf = (ref: string): string => ref.replace(/^refs\/heads\//, '');

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
  ...ITEM_BODIES,
  commit_comment: (h) => {
    const comment = h.payload.at('comment');
    const url = comment.at('html_url').str();
    return commitCommentMessage(sender(h.payload), `[commented](${url})`, url.split('#')[0]!, comment.at('commit_id').str(), comment.at('body').str());
  },
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
  member: (h) => {
    const member = h.payload.at('member');
    return `${sender(h.payload)} ${h.payload.at('action').str()} [${member.at('login').str()}](${member.at('html_url').str()}) to [${h.payload.at('repository').at('name').str()}](${repoUrl(h.payload)}).`;
  },
  membership: (h) => {
    const action = h.payload.at('action').str();
    const member = h.payload.at('member');
    return `${sender(h.payload)} ${action} [${member.at('login').str()}](${member.at('html_url').str()}) ${action === 'removed' ? 'from' : 'to'} the ${h.payload.at('team').at('name').str()} team.`;
  },
  page_build: pageBuild,
  ping: (h) => setupMessage('GitHub', sender(h.payload)),
  public: (h) => `${sender(h.payload)} made the repository [${repoFullName(h.payload)}](${repoUrl(h.payload)}) public.`,
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
