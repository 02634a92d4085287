// The requests about one's sessions and API key, and invitations: `client.accounts`.
import type { Api } from '../api.js';
import type { ApiKeyAnswer, Invite, Session } from '../types.js';

export class AccountRequests {
  constructor(private readonly api: Api) {}

  sessions(): Promise<Session[]> {
    return this.api.get<{ sessions: Session[] }>('sessions').then((answer) => answer.sessions);
  }

  endSession(id: number): Promise<unknown> {
    return this.api.delete(`sessions/${id}`);
  }

  /** Signing out: this browser's session ends and its cookie goes. */
  signOut(): Promise<unknown> {
    return this.api.delete('sessions/current');
  }

  /** The API key, shown on request: the password is asked again (POST /fetch_api_key). */
  async apiKey(email: string, password: string): Promise<string> {
    return (await this.api.post<ApiKeyAnswer>('fetch_api_key', { username: email, password })).api_key;
  }

  invites(): Promise<Invite[]> {
    return this.api.get<{ invites: Invite[] }>('invites').then((answer) => answer.invites);
  }

  invite(params: { invitee_emails: string; stream_ids: number[]; invite_as: number; include_realm_default_subscriptions: boolean }): Promise<unknown> {
    return this.api.post('invites', params);
  }

  createInviteLink(params: { stream_ids: number[]; invite_as: number; invite_expires_in_minutes: number | null }): Promise<string> {
    return this.api.post<{ invite_link: string }>('invites/multiuse', params).then((answer) => answer.invite_link);
  }

  revokeInvite(invite: Invite): Promise<unknown> {
    return this.api.delete(invite.is_multiuse ? `invites/multiuse/${invite.id}` : `invites/${invite.id}`);
  }

  resendInvite(id: number): Promise<unknown> {
    return this.api.post(`invites/${id}/resend`);
  }
}
