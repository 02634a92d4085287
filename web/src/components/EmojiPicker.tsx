// The emoji picker: the server's Unicode emoji names (server_emoji_data_url) and the
// organization's custom emoji, filtered by name.
import { useState } from 'preact/hooks';
import type { Client } from '../client.js';
import type { Reaction } from '../types.js';

export type EmojiChoice = Pick<Reaction, 'emoji_name' | 'emoji_code' | 'reaction_type'>;

const unicode = (code: string) => String.fromCodePoint(...code.split('-').map((hex) => parseInt(hex, 16)));

/** A reaction's emoji: the Unicode character, or the custom emoji's image (same origin). */
export function emojiGlyph(client: Client, r: EmojiChoice) {
  // Zulip's "Plain text" emoji set shows names.
  if (r.reaction_type === 'unicode_emoji' && client.state.settingValue('emojiset') === 'text') return <span class="emoji">:{r.emoji_name}:</span>;
  if (r.reaction_type === 'unicode_emoji') return <span class="emoji">{unicode(r.emoji_code)}</span>;
  const custom = client.state.realmEmoji.get(r.emoji_code);
  if (custom) return <img class="emoji" src={new URL(custom.source_url, location.href).pathname.replace(/^\//, '')} alt={`:${r.emoji_name}:`} />;
  return <span class="emoji">:{r.emoji_name}:</span>;
}

export function EmojiPicker({ client, onPick, onClose }: { client: Client; onPick: (r: EmojiChoice) => void; onClose: () => void }) {
  const [query, setQuery] = useState('');
  const q = query.trim().toLowerCase();
  const custom: EmojiChoice[] = [...client.state.realmEmoji.values()].filter((e) => !e.deactivated).map((e) => ({ emoji_name: e.name, emoji_code: e.id, reaction_type: 'realm_emoji' }));
  const standard: EmojiChoice[] = client.state.emojiNames.map((entry) => {
    const [name, code] = entry.split(':') as [string, string];
    return { emoji_name: name, emoji_code: code, reaction_type: 'unicode_emoji' };
  });
  const shown = [...custom, ...standard].filter((e) => e.emoji_name.includes(q)).slice(0, 64);
  return (
    <div class="emoji-picker" role="dialog" aria-label="Choose an emoji" onKeyDown={(e) => e.key === 'Escape' && onClose()}>
      <input type="search" placeholder="Search emoji" aria-label="Search emoji" value={query} autofocus onInput={(e) => setQuery((e.target as HTMLInputElement).value)}
        onKeyDown={(e) => e.key === 'Enter' && shown[0] && onPick(shown[0])} />
      <div class="emoji-grid">
        {shown.map((e) => (
          <button key={e.reaction_type + e.emoji_code} title={`:${e.emoji_name}:`} data-emoji={e.emoji_name} onClick={() => onPick(e)}>
            {emojiGlyph(client, e)}
          </button>
        ))}
      </div>
    </div>
  );
}
