// The requests about people and one's own account: presence, statuses, alert words, muted users,
// personal settings, the API key; and, for administrators, users' roles and deactivation, custom
// emoji and linkifiers. Components reach them as `client.people` and `client.org`.
import type { Api } from '../api.js';
import type { ApiKeyAnswer, Presences, SettingValue } from '../types.js';

export class PeopleRequests {
  constructor(private readonly api: Api) {}

  /** Reports this client's presence (POST /users/me/presence), getting everyone's in Zulip's modern format. */
  reportPresence(status: 'active' | 'idle'): Promise<Presences> {
    return this.api.post<Presences>('users/me/presence', { status, slim_presence: true, new_user_input: status === 'active' });
  }

  setStatus(userId: number | 'me', status: { status_text: string; emoji_name: string }): Promise<unknown> {
    return this.api.post(`users/${userId}/status`, status);
  }

  addAlertWord(word: string): Promise<unknown> {
    return this.api.post('users/me/alert_words', { alert_words: [word] });
  }

  removeAlertWord(word: string): Promise<unknown> {
    return this.api.delete('users/me/alert_words', { alert_words: [word] });
  }

  mute(userId: number, on: boolean): Promise<unknown> {
    return on ? this.api.post(`users/me/muted_users/${userId}`) : this.api.delete(`users/me/muted_users/${userId}`);
  }

  /** PATCH /settings: personal settings, full_name, email visibility, or a password change. */
  updateSettings(change: Record<string, SettingValue>): Promise<unknown> {
    return this.api.patch('settings', change);
  }

  /** A new API key: every client holding the old one is signed out. */
  async regenerateApiKey(): Promise<string> {
    return (await this.api.post<Pick<ApiKeyAnswer, 'api_key'>>('users/me/api_key/regenerate')).api_key;
  }
}

export class OrganizationRequests {
  constructor(private readonly api: Api) {}

  /** PATCH /realm: the organization's name and description (what changed comes back as events). */
  updateRealm(changes: { name?: string; description?: string }): Promise<unknown> {
    return this.api.patch('realm', changes);
  }

  setRole(userId: number, role: number): Promise<unknown> {
    return this.api.patch(`users/${userId}`, { role });
  }

  deactivate(userId: number): Promise<unknown> {
    return this.api.delete(`users/${userId}`);
  }

  reactivate(userId: number): Promise<unknown> {
    return this.api.post(`users/${userId}/reactivate`);
  }

  addEmoji(name: string, file: File): Promise<unknown> {
    const body = new FormData();
    body.append('file', file);
    return this.api.post(`realm/emoji/${encodeURIComponent(name)}`, body);
  }

  removeEmoji(name: string): Promise<unknown> {
    return this.api.delete(`realm/emoji/${encodeURIComponent(name)}`);
  }

  addLinkifier(pattern: string, urlTemplate: string): Promise<unknown> {
    return this.api.post('realm/filters', { pattern, url_template: urlTemplate });
  }

  removeLinkifier(id: number): Promise<unknown> {
    return this.api.delete(`realm/filters/${id}`);
  }
}
