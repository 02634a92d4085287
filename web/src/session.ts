// The signed-in account: kept in sessionStorage (gone when the tab closes), never in a URL.
import type { Credentials } from './api.js';

const KEY = 'parley.credentials';

export function loadSession(): Credentials | null {
  try {
    const saved = JSON.parse(sessionStorage.getItem(KEY) ?? 'null') as Credentials | null;
    return saved && typeof saved.email === 'string' && typeof saved.apiKey === 'string' ? saved : null;
  } catch {
    return null;
  }
}

export function saveSession(credentials: Credentials | null): void {
  if (credentials) sessionStorage.setItem(KEY, JSON.stringify(credentials));
  else sessionStorage.removeItem(KEY);
}
