// What a new organization's first page says to do next: invite people, create a channel, start
// a conversation, connect the mobile app or Zulip Terminal.
import type { Client } from '../client.js';
import { useStore } from '../store.js';
import { openCompose } from './Compose.js';

/** A new organization: no other active human, or no message yet. */
export function isNewOrganization(client: Client): boolean {
  const s = client.state;
  const humans = [...s.users.values()].filter((u) => u.is_active && !u.is_bot).length;
  return humans <= 1 || s.realm.maxMessageId === -1;
}

export function Onboarding({ client }: { client: Client }) {
  const state = useStore(client.state);
  const server = new URL('.', location.href).href;
  return (
    <section class="onboarding" aria-labelledby="onboarding-heading">
      <h2 id="onboarding-heading">Welcome to {state.realm.name || 'your organization'}</h2>
      <p>A few things to do next:</p>
      <ol>
        {state.me.is_admin && <li><a href="#organization/invitations">Invite people</a> to join the organization.</li>}
        <li><a href="#channels/new">Create a channel</a> for a team or a subject, or <a href="#channels/all">browse the channels</a>.</li>
        <li>
          <button class="link-button" onClick={() => openCompose('stream')}>Start a conversation</button> in a channel,
          or <button class="link-button" onClick={() => openCompose('private')}>send a direct message</button>.
        </li>
        <li>
          Connect Zulip's mobile app or Zulip Terminal: they sign in to this server's address, <code>{server}</code>,
          with your email and password.
        </li>
      </ol>
    </section>
  );
}
