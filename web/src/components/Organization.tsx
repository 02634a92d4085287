// Administration (#organization/<section>), for administrators: users, invitations, the
// organization's profile, custom emoji, linkifiers, default channels and users' statuses. Other
// pages (such as bots) plug in by adding an entry to ORGANIZATION_SECTIONS and its component.
// Members and moderators see the invitations only (Zulip lets members invite by default).
import type { ComponentType } from 'preact';
import type { Client } from '../client.js';
import { useStore } from '../store.js';
import { DefaultChannelSettings, EmojiSettings, LinkifierSettings, UserStatusAdmin } from './AdminSettings.js';
import { AdminUsers } from './AdminUsers.js';
import { Invitations } from './Invitations.js';
import { SectionNav } from './SectionNav.js';

function OrganizationProfile({ client }: { client: Client }) {
  const state = useStore(client.state);
  return (
    <section>
      <h2>Organization profile</h2>
      <dl class="profile-facts">
        <dt>Name</dt><dd class="org-name-value">{state.realm.name}</dd>
        <dt>Description</dt><dd>{state.realm.description || <span class="muted">None</span>}</dd>
        <dt>Address</dt><dd><code>{state.realm.url}</code></dd>
      </dl>
      <p class="muted">The name is set when the organization is created (<code>parley init --org-name</code>); this server has no API to change the organization's name or description yet.</p>
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
