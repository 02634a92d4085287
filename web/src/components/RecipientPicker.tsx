// Picks one or several people: chosen ones as removable chips, a search field suggesting active
// users by name or email (↑ ↓ to choose, Enter to add, Backspace removes the last chip).
import { useState } from 'preact/hooks';
import type { State } from '../store.js';

export function RecipientPicker({ state, label, chosen, onChange, exclude = [], autofocus = false }: {
  state: State;
  label: string;
  chosen: number[];
  onChange: (ids: number[]) => void;
  exclude?: number[];
  autofocus?: boolean;
}) {
  const [query, setQuery] = useState('');
  const [at, setAt] = useState(0);
  const q = query.trim().toLowerCase();
  const matches = q === '' ? [] : [...state.users.values()]
    .filter((u) => u.is_active && !chosen.includes(u.user_id) && !exclude.includes(u.user_id) && (u.full_name.toLowerCase().includes(q) || u.email.toLowerCase().includes(q)))
    .slice(0, 8);
  const add = (id: number) => {
    onChange([...chosen, id]);
    setQuery('');
    setAt(0);
  };
  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      if (matches.length > 0) setAt((at + (e.key === 'ArrowDown' ? 1 : matches.length - 1)) % matches.length);
    } else if (e.key === 'Enter' && matches[at]) {
      e.preventDefault();
      add(matches[at]!.user_id);
    } else if (e.key === 'Backspace' && query === '' && chosen.length > 0) {
      onChange(chosen.slice(0, -1));
    }
  };
  const listId = `picker-${label.replace(/\W+/g, '-').toLowerCase()}`;
  return (
    <div class="recipient-picker">
      {chosen.map((id) => (
        <span class="chip" key={id} data-user-id={id}>
          {state.userName(id)}
          <button type="button" aria-label={`Remove ${state.userName(id)}`} onClick={() => onChange(chosen.filter((x) => x !== id))}>×</button>
        </span>
      ))}
      <input
        type="text"
        role="combobox"
        aria-label={label}
        aria-expanded={matches.length > 0}
        aria-controls={listId}
        aria-autocomplete="list"
        placeholder={chosen.length === 0 ? 'Name or email' : 'Add another'}
        value={query}
        autofocus={autofocus}
        onInput={(e) => { setQuery((e.target as HTMLInputElement).value); setAt(0); }}
        onKeyDown={onKeyDown}
      />
      {matches.length > 0 && (
        <ul class="autocomplete picker-suggestions" role="listbox" id={listId} aria-label="People">
          {matches.map((u, i) => (
            <li key={u.user_id} role="option" aria-selected={i === at} data-user-id={u.user_id} onMouseDown={(e) => { e.preventDefault(); add(u.user_id); }}>
              {u.full_name} <span class="muted">{u.email}</span>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
