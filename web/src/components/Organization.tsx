// Administration (#organization/<section>), for administrators: users, invitations, the
// organization's profile, custom emoji, linkifiers, default channels and users' statuses. Other
// pages (such as bots) plug in by adding an entry to ORGANIZATION_SECTIONS and its component.
// Members and moderators see the invitations only (Zulip lets members invite by default).
import type { ComponentType } from 'preact';
import type { Client } from '../client.js';
import { useStore } from '../store.js';
import { DefaultChannelSettings, EmojiSettings, LinkifierSettings, UserStatusAdmin } from './AdminSettings.js';
import { AdminUsers } from './AdminUsers.js';
import { useOutcome } from './outcome.js';
import { Invitations } from './Invitations.js';
import { SectionNav } from './SectionNav.js';

/** Zulip's limits (PATCH /realm). */
const MAX_NAME = 40;
const MAX_DESCRIPTION = 1000;

function OrganizationProfile({ client }: { client: Client }) {
  const state = useStore(client.state);
  const [outcome, run] = useOutcome();
  const save = (e: Event) => {
    e.preventDefault();
    const data = new FormData(e.target as HTMLFormElement);
    run(client.org.updateRealm({ name: String(data.get('name') ?? '').trim(), description: String(data.get('description') ?? '') }));
  };
  return (
    <section>
      <h2>Organization profile</h2>
      {/* Keyed by the values: an event from another administrator's change shows here at once. */}
      <form class="settings-form stacked-form" onSubmit={save} key={`${state.realm.name}\u0000${state.realm.description}`}>
        <label>Name <input name="name" class="org-name-input" defaultValue={state.realm.name} required maxLength={MAX_NAME} /></label>
        <label>Description (Markdown)
          <textarea name="description" rows={4} defaultValue={state.realm.description} maxLength={MAX_DESCRIPTION} />
        </label>
        <button type="submit">Save</button>
      </form>
      <p role="status">{outcome}</p>
      <dl class="profile-facts">
        <dt>Address</dt><dd><code>{state.realm.url}</code></dd>
      </dl>
    </section>
  );
}

export const ORGANIZATION_SECTIONS: { id: string; label: string; page: ComponentType<{ client: Client }> }[] = [
  { id: 'users', label: 'Users', page: AdminUsers },
  { id: 'invitations', label: 'Invitations', page: Invitations },
  { id: 'profile', label: 'Organization profile', page: OrganizationProfile },
  { id: 'emoji', label: 'Custom emoji', page: EmojiSettings },
  { id: 'linkifiers', label: 'Linkifiers', page: LinkifierSettings },
  { id: 'default-channels', label: 'Default channels', page: DefaultChannelSettings },
  { id: 'statuses', label: "Users' statuses", page: UserStatusAdmin },
];

export function Organization({ client, section }: { client: Client; section: string }) {
  const state = useStore(client.state);
  const guest = state.users.get(state.me.user_id)?.is_guest !== false;
  if (!state.me.is_admin && (section !== 'invitations' || guest)) return <p class="empty">Only administrators manage the organization.</p>;
  const sections = state.me.is_admin ? ORGANIZATION_SECTIONS : ORGANIZATION_SECTIONS.filter((s) => s.id === 'invitations');
  const Page = sections.find((s) => s.id === section)?.page;
  return (
    <div class="settings with-sections">
      <SectionNav page="organization" sections={sections} current={section} label="Administration sections" />
      <div class="section-body">
        {Page ? <Page client={client} /> : <p class="empty">This page is not part of this server yet.</p>}
      </div>
    </div>
  );
}
