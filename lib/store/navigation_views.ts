// SQL for navigation views (the navigation_view table).
import { bit, type Store } from './db.js';

export interface NavigationViewRow {
  id: number;
  user_id: number;
  fragment: string;
  is_pinned: number;
  name: string | null;
}

export function selectNavigationViews(s: Store, userId: number): NavigationViewRow[] {
  return s.all<NavigationViewRow>('SELECT * FROM navigation_view WHERE user_id = ? ORDER BY id', userId);
}

export function selectNavigationView(s: Store, userId: number, fragment: string): NavigationViewRow | undefined {
  return s.get<NavigationViewRow>('SELECT * FROM navigation_view WHERE user_id = ? AND fragment = ?', userId, fragment);
}

export function selectNavigationViewNameTaken(s: Store, userId: number, name: string): boolean {
  return s.get('SELECT 1 FROM navigation_view WHERE user_id = ? AND name = ?', userId, name) !== undefined;
}

export function insertNavigationView(s: Store, userId: number, fragment: string, isPinned: boolean, name: string | null): void {
  s.run('INSERT INTO navigation_view (user_id, fragment, is_pinned, name) VALUES (?, ?, ?, ?)', userId, fragment, bit(isPinned), name);
}

export function updateNavigationViewPinned(s: Store, id: number, isPinned: boolean): void {
  s.run('UPDATE navigation_view SET is_pinned = ? WHERE id = ?', bit(isPinned), id);
}

export function updateNavigationViewName(s: Store, id: number, name: string): void {
  s.run('UPDATE navigation_view SET name = ? WHERE id = ?', name, id);
}

export function deleteNavigationView(s: Store, id: number): void {
  s.run('DELETE FROM navigation_view WHERE id = ?', id);
}
