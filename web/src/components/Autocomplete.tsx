// Suggestions for the word being typed: `@` a user (inserts @**Name|id**), `#` a channel
// (inserts #**channel**), as Zulip's Markdown writes mentions and channel links.
import type { State } from '../store.js';

export interface Suggestion {
  label: string;
  insert: string;
}

export function suggestionsFor(state: State, beforeCaret: string): Suggestion[] {
  const match = /(^|\s)([@#])([^\s@#]*)$/.exec(beforeCaret);
  if (!match) return [];
  const q = match[3]!.toLowerCase();
  if (match[2] === '@') {
    return [...state.users.values()]
      .filter((u) => u.is_active !== false && (u.full_name.toLowerCase().includes(q) || u.email.toLowerCase().startsWith(q)))
      .slice(0, 8)
      .map((u) => ({ label: `${u.full_name} (${u.email})`, insert: `@**${u.full_name}|${u.user_id}**` }));
  }
  return [...state.subs.values()]
    .filter((s) => s.name.toLowerCase().includes(q))
    .slice(0, 8)
    .map((s) => ({ label: `#${s.name}`, insert: `#**${s.name}**` }));
}

export function Autocomplete({ items, chosen, onPick }: { items: Suggestion[]; chosen: number; onPick: (s: Suggestion) => void }) {
  return (
    <ul class="autocomplete" role="listbox" aria-label="Suggestions">
      {items.map((s, i) => (
        <li key={s.insert} role="option" aria-selected={i === chosen} onMouseDown={(e) => { e.preventDefault(); onPick(s); }}>
          {s.label}
        </li>
      ))}
    </ul>
  );
}
