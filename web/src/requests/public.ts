// The requests made without being signed in: the organization's name and icon, signing in (a
// session cookie), and the account pages' (what a link is for, sign-up, password reset, a new
// email address's confirmation).
import { Api } from '../api.js';
import type { LinkInfo, ServerSettings, SignedIn } from '../types.js';

const api = new Api();

export const serverSettings = (): Promise<ServerSettings> => api.get<ServerSettings>('server_settings');

/** Whether the browser is signed in (a session, or the embedding application's sign-in). */
export const signedInAs = (): Promise<{ user_id: number }> => api.get<{ user_id: number }>('users/me');

export const signIn = (email: string, password: string): Promise<SignedIn> => api.post<SignedIn>('sessions', { username: email, password });

export const describeLink = (key: string): Promise<LinkInfo> => api.post<LinkInfo>('accounts/confirmation', { key });

/** Asks for the link that confirms an address (a reusable invitation link's `key`, or open sign-up). */
export const askToJoin = (email: string, key?: string): Promise<unknown> => api.post('accounts/signup', key === undefined ? { email } : { email, key });

export const register = (key: string, fullName: string, password: string): Promise<SignedIn> =>
  api.post<SignedIn>('accounts/register', { key, full_name: fullName, password });

export const askPasswordReset = (email: string): Promise<unknown> => api.post('accounts/password/reset', { email });

export const setNewPassword = (key: string, password: string): Promise<SignedIn> => api.post<SignedIn>('accounts/password/set', { key, new_password: password });

export const confirmEmail = (key: string): Promise<{ email: string }> => api.post<{ email: string }>('accounts/email/confirm', { key });
