// One message: sender, time, the server-rendered HTML, reactions, edited/starred marks, and its
// actions (star, react, quote and reply, edit and delete one's own).
import { Component } from 'preact';
import { useState } from 'preact/hooks';
import { ApiFailure } from '../api.js';
import type { Client } from '../client.js';
import { formatDate } from '../dates.js';
import { initials } from '../people.js';
import type { Message, Reaction } from '../types.js';
import { EmojiPicker, emojiGlyph } from './EmojiPicker.js';

const time = (seconds: number, twentyFour: boolean) =>
  formatDate(seconds * 1000, { year: '2-digit', month: 'numeric', day: 'numeric', hour: 'numeric', minute: '2-digit', hour12: !twentyFour });

/** Where style.css shows every message's actions (no hover on a phone). */
const PHONE = matchMedia('(max-width: 700px)');

/**
 * A quote of the message for the compose box: Zulip's "Quote and reply" header, the text as a
 * Markdown `>` quote (parley renders a ```quote fence as a code block; both render `>` alike).
 */
export const quoteOf = (m: Message, raw: string) => `@_**${m.sender_full_name}|${m.sender_id}** said:\n${raw.split('\n').map((line) => `> ${line}`).join('\n')}\n\n`;

/** Zulip's spoiler blocks open and close from their header. */
function toggleSpoiler(event: MouseEvent) {
  const header = (event.target as Element).closest('.spoiler-header');
  header?.parentElement?.classList.toggle('spoiler-open');
}

function groupReactions(reactions: Reaction[]) {
  const groups = new Map<string, { r: Reaction; users: number[] }>();
  for (const r of reactions) {
    const key = `${r.reaction_type}:${r.emoji_code}`;
    const g = groups.get(key) ?? { r, users: [] };
    g.users.push(r.user_id);
    groups.set(key, g);
  }
  return [...groups.values()];
}

interface ItemProps {
  client: Client;
  message: Message;
  unread: boolean;
  twentyFour: boolean;
  /** The state's displayEpoch: people and custom emoji as shown. */
  epoch: number;
}

/**
 * A message row, rendered again only when what it shows changed (the message is a new object
 * when it changed): the list renders for every change of the state, and its rows are most of
 * the page.
 */
export class MessageItem extends Component<ItemProps> {
  override shouldComponentUpdate(next: ItemProps): boolean {
    const p = this.props;
    return next.message !== p.message || next.unread !== p.unread || next.twentyFour !== p.twentyFour || next.epoch !== p.epoch || next.client !== p.client;
  }

  override render(props: ItemProps) {
    return <MessageRow {...props} />;
  }
}

function MessageRow({ client, message: m, unread, twentyFour }: ItemProps) {
  const state = client.state;
  const [editing, setEditing] = useState<string | null>(null);
  const [picking, setPicking] = useState(false);
  const [error, setError] = useState('');
  // The actions show on hover or focus only (style.css): they are built when first wanted, a
  // page of messages is a third fewer elements to build. A phone-size window shows them always.
  const [wanted, setWanted] = useState(PHONE.matches);
  const want = () => {
    if (!wanted) setWanted(true);
  };
  const mine = m.sender_id === state.me.user_id;
  const starred = m.flags.includes('starred');
  const act = (p: Promise<unknown>) => p.then(() => setError(''), (e) => setError(e instanceof ApiFailure ? e.message : 'Failed.'));

  const raw = () => client.messages.raw(m.id);
  const startEdit = async () => setEditing(await raw());
  const saveEdit = (event: Event) => {
    event.preventDefault();
    void act(client.messages.edit(m.id, editing ?? '').then(() => setEditing(null)));
  };
  const remove = () => {
    if (confirm('Delete this message?')) void act(client.messages.remove(m.id));
  };
  const toggleReaction = (r: Pick<Reaction, 'emoji_name' | 'emoji_code' | 'reaction_type'>) => {
    const had = m.reactions.some((x) => x.user_id === state.me.user_id && x.emoji_code === r.emoji_code && x.reaction_type === r.reaction_type);
    void act(client.messages.react(m.id, { emoji_name: r.emoji_name, emoji_code: r.emoji_code, reaction_type: r.reaction_type }, !had));
  };
  const quote = async () => dispatchEvent(new CustomEvent('parley:quote', { detail: quoteOf(m, await raw()) }));

  return (
    <article
      class={`message${unread ? ' unread' : ''}${mine ? ' mine' : ''}`}
      data-message-id={m.id}
      tabIndex={0}
      aria-label={`${m.sender_full_name}, ${time(m.timestamp, twentyFour)}`}
      onMouseEnter={want}
      onFocusIn={want}
      onPointerDown={want}
    >
      <span class="avatar" aria-hidden="true">{initials(m.sender_full_name)}</span>
      <div class="message-body">
        <header>
          <strong class="sender">{m.sender_full_name}</strong>
          <time dateTime={new Date(m.timestamp * 1000).toISOString()}>{time(m.timestamp, twentyFour)}</time>
          {m.last_edit_timestamp !== undefined && <span class="edited">(edited)</span>}
          {starred && <span class="star-mark" aria-label="Starred">★</span>}
        </header>
        {editing === null ? (
          <div class="content rendered" onClick={toggleSpoiler} dangerouslySetInnerHTML={{ __html: m.match_content ?? m.content }} />
        ) : (
          <form class="edit" onSubmit={saveEdit}>
            <textarea aria-label="Edit message" value={editing} onInput={(e) => setEditing((e.target as HTMLTextAreaElement).value)} />
            <button type="submit">Save</button>
            <button type="button" onClick={() => setEditing(null)}>Cancel</button>
          </form>
        )}
        {m.reactions.length > 0 && (
          <div class="reactions">
            {groupReactions(m.reactions).map(({ r, users }) => (
              <button
                key={r.emoji_code}
                class={`reaction${users.includes(state.me.user_id) ? ' own' : ''}`}
                data-emoji={r.emoji_name}
                aria-pressed={users.includes(state.me.user_id)}
                title={users.map((id) => state.userName(id)).join(', ')}
                onClick={() => toggleReaction(r)}
              >
                {emojiGlyph(client, r)} {users.length}
              </button>
            ))}
          </div>
        )}
        {error && <p class="error" role="alert">{error}</p>}
        {wanted && (
          <div class="actions">
            <button class="star" aria-pressed={starred} onClick={() => act(client.messages.setFlag([m.id], 'starred', !starred))}>{starred ? 'Unstar' : 'Star'}</button>
            <button class="react" aria-expanded={picking} onClick={() => setPicking(!picking)}>React</button>
            <button class="quote" onClick={() => void quote()}>Quote</button>
            {mine && <button class="edit-button" onClick={() => void startEdit()}>Edit</button>}
            {mine && <button class="delete" onClick={remove}>Delete</button>}
          </div>
        )}
        {picking && <EmojiPicker client={client} onPick={(r) => { setPicking(false); toggleReaction(r); }} onClose={() => setPicking(false)} />}
      </div>
    </article>
  );
}
