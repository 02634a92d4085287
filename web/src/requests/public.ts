// The two requests made before signing in: the organization's name and icon, and the API key
// for an email and password.
import { Api } from '../api.js';
import type { ApiKeyAnswer, ServerSettings } from '../types.js';

export const serverSettings = (): Promise<ServerSettings> => new Api(null).get<ServerSettings>('server_settings');

export const fetchApiKey = (email: string, password: string): Promise<ApiKeyAnswer> =>
  new Api(null).post<ApiKeyAnswer>('fetch_api_key', { username: email, password });
