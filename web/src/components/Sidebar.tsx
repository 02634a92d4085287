// The left column: the organization, the views (inbox, recent conversations, unread, mentions,
// starred, followed topics, drafts and the user's pinned navigation views), the subscribed
// channels with their topics (muted ones dimmed), and direct messages.
import { useState } from 'preact/hooks';
import type { Client } from '../client.js';
import { parseHash, viewHash } from '../narrow.js';
import { topicKey, useStore } from '../store.js';
import { openCompose } from './Compose.js';
import { OrgIcon } from './OrgIcon.js';

const Count = ({ n }: { n: number | undefined }) => (n ? <span class="count" aria-label={`${n} unread`}>{n}</span> : null);

const BUILT_IN: readonly [string, string][] = [
  ['#inbox', 'Inbox'], ['#recent', 'Recent conversations'], ['#unread', 'Unread'], ['#mentions', 'Mentions'], ['#starred', 'Starred'],
  ['#followed', 'Followed topics'], ['#drafts', 'Drafts'],
];

export function Sidebar({ client }: { client: Client }) {
  const state = useStore(client.state);
  const [expanded, setExpanded] = useState<Set<number>>(new Set());
  const counts = state.unreadCounts();
  const current = viewHash(client.view);
  const badge: Record<string, number> = { '#inbox': state.unread.size, '#unread': state.unread.size, '#mentions': state.mentions.size, '#starred': state.starred.size, '#drafts': state.drafts.size };
  // Zulip's navigation views: built-in ones may be renamed or hidden; pinned custom ones are listed.
  const named = new Map(state.navigationViews.map((v) => [v.fragment.replace(/^#?/, '#'), v]));
  const views = [
    ...BUILT_IN.filter(([hash]) => named.get(hash)?.is_pinned !== false).map(([hash, label]) => [hash, named.get(hash)?.name || label] as const),
    ...state.navigationViews.filter((v) => v.is_pinned && !BUILT_IN.some(([h]) => h === v.fragment.replace(/^#?/, '#'))).map((v) => [v.fragment.replace(/^#?/, '#'), v.name || v.fragment] as const),
  ];
  const toggle = (id: number) => {
    const next = new Set(expanded);
    if (next.has(id)) next.delete(id);
    else {
      next.add(id);
      void client.loadTopics(id);
    }
    setExpanded(next);
  };
  const subs = [...state.subs.values()].sort((a, b) => Number(Boolean(b.pin_to_top)) - Number(Boolean(a.pin_to_top)) || a.name.localeCompare(b.name));
  const open = parseHash(current);

  return (
    <nav class="sidebar" aria-label="Channels and views">
      <div class="org">
        <OrgIcon name={state.realm.name} url={state.realm.icon} />
        <span class="org-name">{state.realm.name}</span>
      </div>
      <ul class="views">
        {views.map(([hash, label]) => (
          <li key={hash}>
            <a href={hash} aria-current={current === hash ? 'page' : undefined}>{label}<Count n={badge[hash]} /></a>
          </li>
        ))}
      </ul>
      <div class="sidebar-heading">
        <h2>Channels</h2>
        <a class="heading-action" href="#channels/all" aria-label="Browse channels">Browse</a>
        <a class="heading-action" href="#channels/new" aria-label="Create a channel">+</a>
      </div>
      <ul class="channels">
        {subs.map((sub) => {
          const isOpen = expanded.has(sub.stream_id) || (open.kind === 'channel' && open.streamId === sub.stream_id);
          const hash = viewHash({ kind: 'channel', streamId: sub.stream_id });
          return (
            <li key={sub.stream_id} data-stream-id={sub.stream_id} class={sub.is_muted ? 'muted-channel' : undefined}>
              <div class="channel-row">
                <button class="expander" aria-label={`${isOpen ? 'Hide' : 'Show'} topics of ${sub.name}`} aria-expanded={isOpen} onClick={() => toggle(sub.stream_id)}>
                  {isOpen ? '▾' : '▸'}
                </button>
                <a href={hash} aria-current={current === hash ? 'page' : undefined} class="channel-link">
                  <span class="swatch" style={{ background: sub.color ?? '#888' }} aria-hidden="true" />#{sub.name}<Count n={counts.streams.get(sub.stream_id)} />
                </a>
              </div>
              {isOpen && (
                <ul class="topics">
                  {(state.topics.get(sub.stream_id) ?? []).map((t) => {
                    const th = viewHash({ kind: 'channel', streamId: sub.stream_id, topic: t.name });
                    return (
                      <li key={t.name} class={state.isMuted(sub.stream_id, t.name) ? 'muted-channel' : undefined}>
                        <a href={th} aria-current={current === th ? 'page' : undefined} class="topic-link">{t.name || '(general chat)'}<Count n={counts.topics.get(topicKey(sub.stream_id, t.name))} /></a>
                      </li>
                    );
                  })}
                </ul>
              )}
            </li>
          );
        })}
      </ul>
      <div class="sidebar-heading">
        <h2>Direct messages</h2>
        <button class="heading-action" aria-label="New direct message" onClick={() => openCompose('private')}>+</button>
      </div>
      <ul class="dms">
        {state.dmKeys.slice(0, 20).map((key) => {
          const ids = key.split(',').map(Number);
          const others = ids.filter((id) => id !== state.me.user_id);
          const hash = viewHash({ kind: 'dm', userIds: ids });
          return (
            <li key={key}>
              <a href={hash} aria-current={current === hash ? 'page' : undefined}>{others.length === 0 ? state.me.full_name : others.map((id) => state.userName(id)).join(', ')}<Count n={counts.dms.get(key)} /></a>
            </li>
          );
        })}
      </ul>
      <ul class="phone-only more-links">
        <li><a href="#settings/profile">Settings</a></li>
        {state.me.is_admin && <li><a href="#organization/users">Organization</a></li>}
      </ul>
    </nav>
  );
}
