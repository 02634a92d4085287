// The compose box: Markdown with a preview (POST /messages/render), @-mention and #channel
// autocomplete, Enter sends (Shift+Enter for a new line), drafts and typing kept in sync.
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { ApiFailure } from '../api.js';
import type { Client } from '../client.js';
import { ComposeSync, type Destination } from '../compose_sync.js';
import type { View } from '../narrow.js';
import { Autocomplete, suggestionsFor, type Suggestion } from './Autocomplete.js';

function destinationOf(view: View, topic: string, myId: number): Destination | null {
  if (view.kind === 'channel') return { type: 'stream', to: [view.streamId], topic: view.topic ?? topic };
  if (view.kind === 'dm') {
    const others = view.userIds.filter((id) => id !== myId);
    return { type: 'private', to: others.length === 0 ? [myId] : others, topic: '' };
  }
  return null;
}

export function Compose({ client, view }: { client: Client; view: View }) {
  const [content, setContent] = useState('');
  const [topic, setTopic] = useState('');
  const [preview, setPreview] = useState<string | null>(null);
  const [error, setError] = useState('');
  const [suggestions, setSuggestions] = useState<Suggestion[]>([]);
  const [chosen, setChosen] = useState(0);
  const box = useRef<HTMLTextAreaElement>(null);
  const sync = useMemo(() => new ComposeSync(client), [client, view]);
  const dest = destinationOf(view, topic, client.state.me.user_id);

  // A saved draft of this conversation comes back into the box.
  useEffect(() => {
    const draft = [...client.state.drafts.values()].find((d) => dest && d.type === dest.type && d.to.join() === dest.to.join() && (dest.type === 'private' || d.topic === dest.topic));
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
      if (dest) sync.stopTyping(dest);
    };
  }, [sync]);

  if (!dest) return null;
  const needsTopic = view.kind === 'channel' && view.topic === undefined;

  const edit = (value: string) => {
    setContent(value);
    sync.typed(dest, value);
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

  const send = async () => {
    if (content.trim() === '') return;
    const params = dest.type === 'stream'
      ? { type: 'stream', to: dest.to[0], topic: dest.topic, content }
      : { type: 'direct', to: dest.to, content };
    try {
      await client.api.post('messages', params);
      setContent('');
      setPreview(null);
      setError('');
      await sync.sent(dest);
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
    const { rendered } = await client.api.post('messages/render', { content }).catch(() => ({ rendered: '<p>(Preview unavailable.)</p>' }));
    setPreview(rendered);
  };

  return (
    <form class="compose" onSubmit={(e) => { e.preventDefault(); void send(); }}>
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
        <button type="button" onClick={() => void togglePreview()}>{preview === null ? 'Preview' : 'Edit'}</button>
        <button type="submit" class="send">Send</button>
      </div>
    </form>
  );
}
