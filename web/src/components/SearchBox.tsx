// The search box (key /): Zulip's search syntax, opened as #search/<query>; the results show
// the server's highlighting (match_content, match_subject).
import { useEffect, useRef, useState } from 'preact/hooks';
import type { View } from '../narrow.js';

export function SearchBox({ view }: { view: View }) {
  const [query, setQuery] = useState(view.kind === 'search' ? view.query : '');
  const input = useRef<HTMLInputElement>(null);
  useEffect(() => setQuery(view.kind === 'search' ? view.query : ''), [view.kind === 'search' ? view.query : '']);
  useEffect(() => {
    const focus = () => input.current?.focus();
    addEventListener('parley:search', focus);
    return () => removeEventListener('parley:search', focus);
  }, []);
  return (
    <form class="search" role="search" onSubmit={(e) => {
      e.preventDefault();
      if (query.trim() !== '') location.hash = `#search/${encodeURIComponent(query.trim())}`;
    }}>
      <input ref={input} type="search" aria-label="Search messages" placeholder="Search (e.g. &quot;a phrase&quot; channel:general sender:me)" title="Words, &quot;quoted phrases&quot;, channel:, topic:, sender:, is:, has:"
        value={query} onInput={(e) => setQuery((e.target as HTMLInputElement).value)}
        onKeyDown={(e) => e.key === 'Escape' && (e.target as HTMLInputElement).blur()} />
    </form>
  );
}
