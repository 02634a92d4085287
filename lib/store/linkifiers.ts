// SQL for the linkifier table, and the row mapper.
import type { Store } from './db.js';

export interface LinkifierRow {
  id: number;
  pattern: string;
  url_template: string;
  example_input: string | null;
  reverse_template: string | null;
  /** JSON list of strings. */
  alternative_url_templates: string;
  sort_order: number;
}

export type LinkifierFields = Omit<LinkifierRow, 'id' | 'sort_order'>;

/** Processing order; equal sort_order values fall back to creation order, as in Zulip. */
export function selectLinkifiers(s: Store): LinkifierRow[] {
  return s.all<LinkifierRow>('SELECT * FROM linkifier ORDER BY sort_order, id');
}

export function selectLinkifier(s: Store, id: number): LinkifierRow | undefined {
  return s.get<LinkifierRow>('SELECT * FROM linkifier WHERE id = ?', id);
}

export function selectLinkifierIdByPattern(s: Store, pattern: string): number | undefined {
  return s.prepare('SELECT id FROM linkifier WHERE pattern = ?').pluck().get(pattern) as number | undefined;
}

/** The order a new linkifier gets: after every existing one (0 for the first). */
export function selectNextLinkifierOrder(s: Store): number {
  return s.prepare('SELECT coalesce(max(sort_order) + 1, 0) FROM linkifier').pluck().get() as number;
}

export function insertLinkifier(s: Store, fields: LinkifierFields, sortOrder: number): number {
  const result = s.run(
    `INSERT INTO linkifier (pattern, url_template, example_input, reverse_template, alternative_url_templates, sort_order)
     VALUES (?, ?, ?, ?, ?, ?)`,
    fields.pattern,
    fields.url_template,
    fields.example_input,
    fields.reverse_template,
    fields.alternative_url_templates,
    sortOrder,
  );
  return Number(result.lastInsertRowid);
}

export function updateLinkifierRow(s: Store, id: number, fields: LinkifierFields): void {
  s.run(
    `UPDATE linkifier SET pattern = ?, url_template = ?, example_input = ?, reverse_template = ?,
       alternative_url_templates = ? WHERE id = ?`,
    fields.pattern,
    fields.url_template,
    fields.example_input,
    fields.reverse_template,
    fields.alternative_url_templates,
    id,
  );
}

export function updateLinkifierOrder(s: Store, id: number, sortOrder: number): void {
  s.run('UPDATE linkifier SET sort_order = ? WHERE id = ?', sortOrder, id);
}

export function deleteLinkifierRow(s: Store, id: number): number {
  return s.run('DELETE FROM linkifier WHERE id = ?', id).changes;
}
