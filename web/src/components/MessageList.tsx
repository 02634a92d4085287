// The open view's messages, oldest first, grouped under their conversation's heading. Scrolls to
// the first unread; loads more at either end; marks messages read once they have been seen.
import { useEffect, useLayoutEffect, useRef } from 'preact/hooks';
import type { ComponentChildren } from 'preact';
import type { Client } from '../client.js';
import { viewHash, type View } from '../narrow.js';
import { useStore } from '../store.js';
import type { Message } from '../types.js';
import { MessageItem } from './MessageItem.js';

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function heading(client: Client, m: Message): { key: string; label: string; hash: string; html?: string } {
  if (m.type === 'stream') {
    const name = client.state.streamName(m.stream_id ?? 0);
    const label = `#${name} › ${m.subject || '(general chat)'}`;
    const hash = viewHash({ kind: 'channel', streamId: m.stream_id ?? 0, topic: m.subject });
    // A search's match_subject: the topic, HTML-escaped, with its matching words highlighted.
    const html = m.match_subject !== undefined && m.match_subject.includes('<span') ? `#${escapeHtml(name)} › ${m.match_subject}` : undefined;
    return { key: `${m.stream_id}/${m.subject.toLowerCase()}`, label, hash, ...(html === undefined ? {} : { html }) };
  }
  const ids = Array.isArray(m.display_recipient) ? m.display_recipient.map((r) => r.id).sort((a, b) => a - b) : [];
  return { key: `dm/${ids.join()}`, label: 'Direct message: ' + ids.map((id) => client.state.userName(id)).join(', '), hash: viewHash({ kind: 'dm', userIds: ids }) };
}

/**
 * Only a conversation (a channel, a topic, direct messages) marks what is seen as read: the
 * Unread, Mentions and Starred views are lists to come back to, as in Zulip's web app, whose
 * search-like views leave messages unread.
 */
const marksRead = (view: View): boolean => view.kind === 'channel' || view.kind === 'dm';

export function MessageList({ client, empty }: { client: Client; empty?: ComponentChildren }) {
  const state = useStore(client.state);
  const scroller = useRef<HTMLDivElement>(null);
  const seen = useRef(new Set<number>());
  const pending = useRef<number[]>([]);
  const observer = useRef<IntersectionObserver | undefined>(undefined);
  const scrolledFor = useRef('');
  const v = state.view;

  /** Older messages go above what is in sight, which stays where it is. */
  const loadOlderKeepingPlace = (root: HTMLElement) => {
    const before = root.scrollHeight;
    void client.loadOlder().then(() => (root.scrollTop += root.scrollHeight - before));
  };

  // Read marks go out in batches: whatever became visible in the same moment. A layout effect,
  // before the one below: the list's first render may already hold the view's messages.
  useLayoutEffect(() => {
    let timer: number | undefined;
    observer.current = new IntersectionObserver((entries) => {
      for (const entry of entries) {
        const id = Number((entry.target as HTMLElement).dataset.messageId);
        if (!entry.isIntersecting || seen.current.has(id) || !client.state.unread.has(id) || document.visibilityState !== 'visible') continue;
        if (!marksRead(client.view)) continue;
        seen.current.add(id);
        pending.current.push(id);
      }
      if (pending.current.length > 0 && timer === undefined) {
        timer = window.setTimeout(() => {
          timer = undefined;
          const ids = pending.current.splice(0);
          client.markRead(ids).catch(() => ids.forEach((id) => seen.current.delete(id)));
        }, 150);
      }
    }, { root: scroller.current, threshold: 0.5 });
    return () => observer.current?.disconnect();
  }, [client]);

  // Observe each unread message row once rendered; a page shown again re-checks what is on screen.
  useLayoutEffect(() => {
    const root = scroller.current;
    if (!root || !observer.current) return;
    for (const el of root.querySelectorAll<HTMLElement>('.message.unread')) observer.current.observe(el);
    if (scrolledFor.current !== v.key && v.ids.length > 0) {
      scrolledFor.current = v.key;
      const firstUnread = root.querySelector<HTMLElement>('.message.unread');
      if (firstUnread) firstUnread.scrollIntoView({ block: 'center' });
      else root.scrollTop = root.scrollHeight;
    } else if (root.scrollHeight - root.scrollTop - root.clientHeight < 200) root.scrollTop = root.scrollHeight;
    // A page that does not fill the list gives nothing to scroll, and scrolling is what fetches
    // more (onScroll below): fetch it now, until the list is full or the conversation is all in.
    // Here, not in an effect after the paint: the view's state is changed in place, and only now
    // is the document what it says.
    // (Not again after a failed fetch: scrolling, or opening the view again, tries again.)
    if (v.loading || v.error !== undefined || v.ids.length === 0 || root.clientHeight === 0 || root.scrollHeight > root.clientHeight) return;
    if (!v.foundOldest) loadOlderKeepingPlace(root);
    else if (!v.foundNewest) void client.loadNewer();
  });

  useEffect(() => {
    const recheck = () => {
      observer.current?.disconnect();
      for (const el of scroller.current?.querySelectorAll<HTMLElement>('.message.unread') ?? []) observer.current?.observe(el);
    };
    document.addEventListener('visibilitychange', recheck);
    return () => document.removeEventListener('visibilitychange', recheck);
  }, []);

  const onScroll = () => {
    const root = scroller.current!;
    if (root.scrollTop < 100) loadOlderKeepingPlace(root);
    if (root.scrollHeight - root.scrollTop - root.clientHeight < 100) void client.loadNewer();
  };

  const twentyFour = state.setting('twenty_four_hour_time', false);
  let last = '';
  return (
    <div class="messages" ref={scroller} onScroll={onScroll} aria-busy={v.loading} data-loaded={v.loading ? undefined : v.key}>
      {v.foundOldest && v.ids.length > 0 && <p class="list-edge">The beginning of this conversation.</p>}
      {v.error && <p class="error" role="alert">{v.error}</p>}
      {!v.loading && !v.error && v.ids.length === 0 && (empty ?? <p class="empty">No messages here yet.</p>)}
      <ol class="message-list" aria-label="Messages">
        {v.ids.map((id) => {
          const m = state.messages.get(id);
          if (!m) return null;
          const h = heading(client, m);
          const showHeading = h.key !== last;
          last = h.key;
          return (
            <li key={id}>
              {showHeading && (h.html === undefined ? <a class="recipient" href={h.hash}>{h.label}</a> : <a class="recipient" href={h.hash} dangerouslySetInnerHTML={{ __html: h.html }} />)}
              <MessageItem client={client} message={m} unread={state.unread.has(id)} twentyFour={twentyFour} epoch={state.displayEpoch} />
            </li>
          );
        })}
      </ol>
    </div>
  );
}
