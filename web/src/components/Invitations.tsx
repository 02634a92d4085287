// Inviting people (#organization/invitations): email invitations with a role and channels, a
// reusable invitation link (shown once: the server keeps only its hash), and the pending
// invitations with resend and revoke, fetched again on each invites_changed event.
import { useEffect, useState } from 'preact/hooks';
import type { Client } from '../client.js';
import { useStore } from '../store.js';
import type { Invite } from '../types.js';
import { useOutcome } from './outcome.js';

const ROLES: [number, string][] = [[400, 'Member'], [600, 'Guest'], [300, 'Moderator'], [200, 'Administrator'], [100, 'Owner']];
const roleName = (role: number) => ROLES.find(([value]) => value === role)?.[1] ?? String(role);

function channelIds(form: HTMLFormElement): number[] {
  return new FormData(form).getAll('stream_id').map(Number);
}

export function Invitations({ client }: { client: Client }) {
  const state = useStore(client.state);
  const [invites, setInvites] = useState<Invite[]>([]);
  const [link, setLink] = useState('');
  const [outcome, run] = useOutcome();
  const reload = () => client.accounts.invites().then(setInvites);
  useEffect(() => void reload().catch(() => undefined), [state.invitesChanged]);
  const roles = ROLES.filter(([value]) => value >= 400 || state.me.is_admin).filter(([value]) => value !== 100 || state.me.is_owner);
  const channels = [...state.subs.values()].sort((a, b) => a.name.localeCompare(b.name));

  const invite = (e: Event) => {
    e.preventDefault();
    const form = e.target as HTMLFormElement;
    const data = new FormData(form);
    const emails = String(data.get('emails') ?? '');
    run(
      client.accounts
        .invite({ invitee_emails: emails, stream_ids: channelIds(form), invite_as: Number(data.get('invite_as')), include_realm_default_subscriptions: data.get('defaults') === 'on' })
        .then(() => form.reset()),
      'Invitations sent.',
    );
  };
  const makeLink = (e: Event) => {
    e.preventDefault();
    const form = e.target as HTMLFormElement;
    const data = new FormData(form);
    const days = Number(data.get('days'));
    run(client.accounts.createInviteLink({ stream_ids: channelIds(form), invite_as: Number(data.get('invite_as')), invite_expires_in_minutes: days > 0 ? days * 24 * 60 : null }).then(setLink), 'Link created: copy it now, it is shown only once.');
  };
  const roleSelect = <select name="invite_as">{roles.map(([value, label]) => <option key={value} value={value}>{label}</option>)}</select>;
  const channelBoxes = (
    <fieldset class="channel-choices">
      <legend>Channels to join</legend>
      {channels.map((c) => <label key={c.stream_id} class="inline"><input type="checkbox" name="stream_id" value={c.stream_id} /> #{c.name}</label>)}
    </fieldset>
  );
  return (
    <>
      <section>
        <h2>Invite people by email</h2>
        <form class="settings-form invite-form" onSubmit={invite}>
          <label>Email addresses <textarea name="emails" rows={3} required placeholder="one@example.com, two@example.com" /></label>
          <label>Join as {roleSelect}</label>
          {channelBoxes}
          <label class="inline"><input type="checkbox" name="defaults" defaultChecked /> Also the default channels</label>
          <button type="submit">Invite</button>
        </form>
      </section>
      {state.me.is_admin && (
        <section>
          <h2>Reusable invitation link</h2>
          <form class="settings-form link-form" onSubmit={makeLink}>
            <label>Join as {roleSelect}</label>
            {channelBoxes}
            <label>Expires after (days, 0: never) <input name="days" type="number" min={0} defaultValue={10} /></label>
            <button type="submit">Create link</button>
          </form>
          {link && <p><code class="invite-link">{link}</code></p>}
        </section>
      )}
      <section>
        <h2>Pending invitations</h2>
        {invites.length === 0 ? <p class="empty">No pending invitations.</p> : (
          <ul class="invites">
            {invites.map((i) => (
              <li key={`${i.is_multiuse}-${i.id}`} data-invite={i.email ?? 'link'}>
                <span>{i.email ?? 'Reusable link'}</span>{' '}
                <span class="muted">as {roleName(i.invited_as)}, by {state.userName(i.invited_by_user_id)}, {i.expiry_date === null ? 'never expires' : `expires ${new Date(i.expiry_date * 1000).toLocaleDateString()}`}</span>{' '}
                {!i.is_multiuse && <button onClick={() => run(client.accounts.resendInvite(i.id), 'Sent again.')}>Resend</button>}
                <button onClick={() => run(client.accounts.revokeInvite(i).then(reload), 'Revoked.')}>Revoke</button>
              </li>
            ))}
          </ul>
        )}
      </section>
      <p role="status">{outcome}</p>
    </>
  );
}
