// The compose box: Markdown with a preview (POST /messages/render), @-mention and #channel
// autocomplete, Enter sends (Shift+Enter for a new line), drafts and typing kept in sync. In a
// conversation it writes there; anywhere, "New message" (key c) or "New direct message" (key x)
// opens it with a channel and topic picker or a recipient picker, as Zulip's compose box.
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { ApiFailure } from '../api.js';
import type { Client } from '../client.js';
import { ComposeSync, type Destination } from '../compose_sync.js';
import type { View } from '../narrow.js';
import { useStore } from '../store.js';
import { Autocomplete, suggestionsFor, type Suggestion } from './Autocomplete.js';
import { RecipientPicker } from './RecipientPicker.js';

/** Where the user chose to write, when not to the open conversation. */
export type Target = { type: 'stream'; streamId: number; topic: string } | { type: 'private'; userIds: number[] };

/** Asks the compose box to open: a channel message (c), a direct message (x), or focus. */
export const openCompose = (kind: 'stream' | 'private' | 'focus', userIds: number[] = []) =>
  dispatchEvent(new CustomEvent('parley:compose', { detail: { kind, userIds } }));

function destinationOf(view: View, target: Target | null, topic: string, myId: number): Destination | null {
  if (target?.type === 'stream') return target.streamId ? { type: 'stream', to: [target.streamId], topic: target.topic } : null;
  if (target?.type === 'private') return target.userIds.length > 0 ? { type: 'private', to: target.userIds, topic: '' } : null;
  if (view.kind === 'channel') return { type: 'stream', to: [view.streamId], topic: view.topic ?? topic };
  if (view.kind === 'dm') {
    const others = view.userIds.filter((id) => id !== myId);
    return { type: 'private', to: others.length === 0 ? [myId] : others, topic: '' };
  }
  return null;
}

const isConversation = (view: View) => view.kind === 'channel' || view.kind === 'dm';

export function Compose({ client, view }: { client: Client; view: View }) {
  const state = useStore(client.state);
  const [target, setTarget] = useState<Target | null>(null);
  const [content, setContent] = useState('');
  const [topic, setTopic] = useState('');
  const [preview, setPreview] = useState<string | null>(null);
  const [error, setError] = useState('');
  const [suggestions, setSuggestions] = useState<Suggestion[]>([]);
  const [chosen, setChosen] = useState(0);
  const box = useRef<HTMLTextAreaElement>(null);
  const form = useRef<HTMLFormElement>(null);
  const sync = useMemo(() => new ComposeSync(client), [client, view]);
  const dest = destinationOf(view, target, topic, state.me.user_id);

  // A saved draft of this conversation comes back into the box.
  useEffect(() => {
    setTarget(null);
    const d = destinationOf(view, null, '', client.state.me.user_id);
    const draft = [...client.state.drafts.values()].find((x) => d && x.type === d.type && x.to.join() === d.to.join() && (d.type === 'private' || x.topic === d.topic));
    setContent(draft?.content ?? '');
    sync.draftId = draft?.id ?? null;
    setPreview(null);
    setError('');
    const quote = (e: Event) => {
      setContent((c) => c + (e as CustomEvent<string>).detail);
      box.current?.focus();
    };
    addEventListener('parley:quote', quote);
    return () => {
      removeEventListener('parley:quote', quote);
      if (d) sync.stopTyping(d);
    };
  }, [sync]);

  // c / x / "Send direct message": open the box with its pickers, or focus it.
  useEffect(() => {
    const open = (e: Event) => {
      const { kind, userIds } = (e as CustomEvent<{ kind: 'stream' | 'private' | 'focus'; userIds: number[] }>).detail;
      if (kind === 'stream') {
        const streamId = view.kind === 'channel' ? view.streamId : [...client.state.subs.keys()][0] ?? 0;
        setTarget({ type: 'stream', streamId, topic: view.kind === 'channel' ? view.topic ?? '' : '' });
      } else if (kind === 'private') setTarget({ type: 'private', userIds });
      // After the box renders (a timer: animation frames wait while the window is in the background).
      setTimeout(() => {
        const first = kind === 'focus' ? box.current : form.current?.querySelector<HTMLElement>('select, input, textarea');
        first?.focus();
      }, 0);
    };
    addEventListener('parley:compose', open);
    return () => removeEventListener('parley:compose', open);
  }, [view, client]);

  if (!target && !isConversation(view)) {
    return (
      <div class="compose compose-closed">
        <button type="button" class="send new-message" onClick={() => openCompose('stream')}>New message <kbd>c</kbd></button>
        <button type="button" class="new-dm" onClick={() => openCompose('private')}>New direct message <kbd>x</kbd></button>
      </div>
    );
  }

  const needsTopic = !target && view.kind === 'channel' && view.topic === undefined;

  const edit = (value: string) => {
    setContent(value);
    if (dest) sync.typed(dest, value);
    const caret = box.current?.selectionStart ?? value.length;
    setSuggestions(suggestionsFor(client.state, value.slice(0, caret)));
    setChosen(0);
  };

  const accept = (s: Suggestion) => {
    const el = box.current!;
    const caret = el.selectionStart;
    const before = content.slice(0, caret).replace(/[@#][^\s@#]*$/, s.insert + ' ');
    edit(before + content.slice(caret));
    setSuggestions([]);
    requestAnimationFrame(() => el.setSelectionRange(before.length, before.length));
  };

  const close = () => {
    setTarget(null);
    setError('');
  };

  const send = async () => {
    if (content.trim() === '') return;
    if (!dest) return setError(target?.type === 'private' ? 'Choose at least one person.' : 'Choose a channel.');
    try {
      await client.messages.send(dest, content);
      setContent('');
      setPreview(null);
      setError('');
      await sync.sent(dest);
      if (target && !isConversation(view)) close();
    } catch (e) {
      setError(e instanceof ApiFailure ? e.message : 'Not sent.');
    }
  };

  const onKeyDown = (e: KeyboardEvent) => {
    if (suggestions.length > 0) {
      if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
        e.preventDefault();
        setChosen((chosen + (e.key === 'ArrowDown' ? 1 : suggestions.length - 1)) % suggestions.length);
        return;
      }
      if (e.key === 'Tab' || e.key === 'Enter') {
        e.preventDefault();
        accept(suggestions[chosen]!);
        return;
      }
      if (e.key === 'Escape') return setSuggestions([]);
    }
    if (e.key === 'Enter' && !e.shiftKey && !e.isComposing) {
      e.preventDefault();
      void send();
    }
  };

  const togglePreview = async () => {
    if (preview !== null) return setPreview(null);
    setPreview(await client.messages.render(content).catch(() => '<p>(Preview unavailable.)</p>'));
  };

  const subs = [...state.subs.values()].sort((a, b) => a.name.localeCompare(b.name));
  return (
    <form class="compose" ref={form} aria-label="Compose" onSubmit={(e) => { e.preventDefault(); void send(); }}
      onKeyDown={(e) => { if (e.key === 'Escape' && target && suggestions.length === 0) close(); }}>
      {target?.type === 'stream' && (
        <div class="compose-to">
          <label>Channel
            <select value={target.streamId} onChange={(e) => setTarget({ ...target, streamId: Number((e.target as HTMLSelectElement).value) })}>
              {subs.map((s) => <option key={s.stream_id} value={s.stream_id}>#{s.name}</option>)}
            </select>
          </label>
          <label>Topic
            <input class="topic-input" value={target.topic} onInput={(e) => setTarget({ ...target, topic: (e.target as HTMLInputElement).value })} />
          </label>
          <button type="button" class="link-button" onClick={close}>Cancel</button>
        </div>
      )}
      {target?.type === 'private' && (
        <div class="compose-to">
          <RecipientPicker state={state} label="To" chosen={target.userIds} onChange={(userIds) => setTarget({ type: 'private', userIds })} />
          <button type="button" class="link-button" onClick={close}>Cancel</button>
        </div>
      )}
      {needsTopic && (
        <input class="topic-input" aria-label="Topic" placeholder="Topic" value={topic} onInput={(e) => setTopic((e.target as HTMLInputElement).value)} />
      )}
      {suggestions.length > 0 && <Autocomplete items={suggestions} chosen={chosen} onPick={accept} />}
      {preview !== null ? (
        <div class="preview rendered" aria-label="Preview" dangerouslySetInnerHTML={{ __html: preview }} />
      ) : (
        <textarea
          ref={box}
          class="compose-box"
          aria-label="Message"
          placeholder="Message (Enter sends, Shift+Enter for a new line)"
          rows={3}
          value={content}
          onInput={(e) => edit((e.target as HTMLTextAreaElement).value)}
          onKeyDown={onKeyDown}
        />
      )}
      {error && <p class="error" role="alert">{error}</p>}
      <div class="compose-actions">
        <button type="button" class="preview-button" onClick={() => void togglePreview()}>{preview === null ? 'Preview' : 'Edit'}</button>
        <button type="submit" class="send">Send</button>
      </div>
    </form>
  );
}
