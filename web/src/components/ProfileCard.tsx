// A person's profile card (Zulip's user card): name, role, status, presence, local time, and
// "Send direct message"; mute or unmute them (https://zulip.com/help/mute-a-user).
import { useEffect, useRef } from 'preact/hooks';
import type { Client } from '../client.js';
import { formatDate } from '../dates.js';
import { viewHash } from '../narrow.js';
import { initials, localTime, presenceStatus, roleName } from '../people.js';
import { useStore } from '../store.js';
import { openCompose } from './Compose.js';
import { emojiGlyph } from './EmojiPicker.js';
import { useOutcome } from './outcome.js';
import { PresenceDot } from './PresenceDot.js';

export function ProfileCard({ client, userId, onClose }: { client: Client; userId: number; onClose: () => void }) {
  const state = useStore(client.state);
  const dialog = useRef<HTMLDivElement>(null);
  const [outcome, run] = useOutcome();
  useEffect(() => {
    const previous = document.activeElement as HTMLElement | null;
    dialog.current?.querySelector<HTMLElement>('button')?.focus();
    return () => previous?.focus();
  }, [userId]);
  const user = state.users.get(userId) ?? state.inactiveUsers.get(userId);
  if (!user) return null;
  const status = state.userStatus.get(userId);
  const time = localTime(user, state.setting('twenty_four_hour_time', false));
  const me = userId === state.me.user_id;
  const muted = state.mutedUsers.has(userId);
  const message = () => {
    location.hash = viewHash({ kind: 'dm', userIds: [...new Set([userId, state.me.user_id])].sort((a, b) => a - b) });
    onClose();
    setTimeout(() => openCompose('focus'), 0);
  };
  return (
    <div class="modal-backdrop" onClick={(e) => e.target === e.currentTarget && onClose()}>
      <div class="profile-card" role="dialog" aria-modal="true" aria-labelledby="profile-name" ref={dialog}
        onKeyDown={(e) => e.key === 'Escape' && onClose()}>
        <div class="profile-head">
          <span class="avatar large" aria-hidden="true">{initials(user.full_name)}</span>
          <div>
            <h2 id="profile-name">{user.full_name}</h2>
            <p class="muted"><PresenceDot status={presenceStatus(state, userId)} /> {roleName(user.role)}{user.is_bot ? ' (bot)' : ''}{user.is_active ? '' : ' · deactivated'}</p>
          </div>
        </div>
        <dl class="profile-facts">
          {user.delivery_email || user.email ? <><dt>Email</dt><dd>{user.delivery_email ?? user.email}</dd></> : null}
          {status?.status_text && <><dt>Status</dt><dd class="profile-status">{status.emoji_name && status.emoji_code && status.reaction_type ? <>{emojiGlyph(client, { emoji_name: status.emoji_name, emoji_code: status.emoji_code, reaction_type: status.reaction_type })} </> : null}{status.status_text}</dd></>}
          {time && <><dt>Local time</dt><dd class="profile-time">{time}</dd></>}
          <dt>Joined</dt><dd>{formatDate(new Date(user.date_joined))}</dd>
        </dl>
        <div class="profile-actions">
          {user.is_active && <button class="send send-dm" onClick={message}>Send direct message</button>}
          {!me && <button onClick={() => run(client.people.mute(userId, !muted), muted ? 'Unmuted.' : 'Muted.')}>{muted ? 'Unmute' : 'Mute'}</button>}
          <button onClick={onClose}>Close</button>
        </div>
        <p role="status">{outcome}</p>
      </div>
    </div>
  );
}
