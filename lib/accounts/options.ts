// Who may join the organization and who may bring others in (options.accounts): Zulip's realm
// settings invite_required, emails_restricted_to_domains with realm_domains, and the permission
// groups can_invite_users_group, can_create_multiuse_invite_group and can_add_subscribers_group,
// with Zulip's defaults (lib/accounts/permissions.ts applies them). parley has no system groups to
// store: a setting names Zulip's role group.

/** Zulip's system groups by role (role:members: members and above, never guests). */
export type RoleGroup = 'role:owners' | 'role:administrators' | 'role:moderators' | 'role:members' | 'role:nobody';

export interface AccountOptions {
  /**
   * Zulip's invite_required (default true): new accounts need an invitation. false opens sign-up
   * (the web client's /register page) to anyone with an address `emailDomains` allows.
   */
  inviteRequired?: boolean | undefined;
  /**
   * Zulip's realm_domains with emails_restricted_to_domains: new accounts' addresses (invited or
   * signing up) must be in one of these domains; `*.example.com` also allows its subdomains.
   * Absent or empty: any address.
   */
  emailDomains?: readonly string[] | undefined;
  /** Zulip's can_invite_users_group: who may send email invitations (default role:members). */
  whoMayInvite?: RoleGroup | undefined;
  /** Zulip's can_create_multiuse_invite_group: who may create reusable invitation links (default role:administrators). */
  whoMayCreateInviteLinks?: RoleGroup | undefined;
  /** Zulip's can_add_subscribers_group: who may subscribe other users to channels (default role:members). */
  whoMayAddSubscribers?: RoleGroup | undefined;
  /** Email invitations the organization may send in 24 hours (Zulip's max_invites default, INVITES_DEFAULT_REALM_DAILY_MAX: 100). */
  invitationsPerDay?: number | undefined;
  /**
   * Emails the public pages (password reset, sign-up confirmation) may send in 24 hours at the
   * request of one client address (Zulip's sends_email_by_ip: 5); 0 turns this limit off (the
   * per-address and per-account ones stay).
   */
  emailsPerClientAddressPerDay?: number | undefined;
}
