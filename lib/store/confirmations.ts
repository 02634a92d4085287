// SQL for the confirmation table (lib/accounts/links.ts): the links sent by email, found by the
// SHA-256 of their key, and the requests of the last day that the sending limits count.
import type { Store } from './db.js';

export type ConfirmationKind = 'invitation' | 'multiuse_invite' | 'registration' | 'password_reset' | 'email_change';

export interface ConfirmationRow {
  id: number;
  kind: ConfirmationKind;
  email: string;
  invitation_id: number | null;
  user_id: number | null;
  ip: string;
  created_at: number;
  expires_at: number | null;
  used_at: number | null;
}

const COLUMNS = 'id, kind, email, invitation_id, user_id, ip, created_at, expires_at, used_at';

export function insertConfirmation(s: Store, row: Omit<ConfirmationRow, 'id' | 'used_at'> & { key_hash: Buffer | null }): number {
  return Number(
    s.run(
      'INSERT INTO confirmation (key_hash, kind, email, invitation_id, user_id, ip, created_at, expires_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
      row.key_hash,
      row.kind,
      row.email,
      row.invitation_id,
      row.user_id,
      row.ip,
      row.created_at,
      row.expires_at,
    ).lastInsertRowid,
  );
}

export function selectConfirmationByKeyHash(s: Store, keyHash: Buffer): ConfirmationRow | undefined {
  return s.get<ConfirmationRow>(`SELECT ${COLUMNS} FROM confirmation WHERE key_hash = ?`, keyHash);
}

/** Marks a single-use link followed (or replaced); false when it already was. */
export function markConfirmationUsed(s: Store, id: number, now: number): boolean {
  return s.run('UPDATE confirmation SET used_at = ? WHERE id = ? AND used_at IS NULL', now, id).changes > 0;
}

/** Removes an invitation's links: a resend replaces them (the old link then opens nothing). */
export function deleteInvitationConfirmations(s: Store, invitationId: number): void {
  s.run("DELETE FROM confirmation WHERE invitation_id = ? AND kind = 'invitation'", invitationId);
}

/** Spends a user's unused links of a kind (a new password ends the pending resets). */
export function markUserConfirmationsUsed(s: Store, userId: number, kind: ConfirmationKind, now: number): void {
  s.run('UPDATE confirmation SET used_at = ? WHERE user_id = ? AND kind = ? AND used_at IS NULL', now, userId, kind);
}

export function countConfirmationsForEmail(s: Store, email: string, kind: ConfirmationKind, since: number): number {
  return s.get<{ n: number }>('SELECT count(*) AS n FROM confirmation WHERE email = ? AND kind = ? AND created_at > ?', email, kind, since)!.n;
}

export function countConfirmationsForUser(s: Store, userId: number, kind: ConfirmationKind, since: number): number {
  return s.get<{ n: number }>('SELECT count(*) AS n FROM confirmation WHERE user_id = ? AND kind = ? AND created_at > ?', userId, kind, since)!.n;
}

/** Emails the public pages had sent to arbitrary addresses for one client address since `since`. */
export function countConfirmationsForIp(s: Store, ip: string, since: number): number {
  return s.get<{ n: number }>('SELECT count(*) AS n FROM confirmation WHERE ip = ? AND created_at > ?', ip, since)!.n;
}

/** Removes rows older than `before` that no link needs any more: spent, expired, or sent without one. */
export function deleteSpentConfirmations(s: Store, before: number, now: number): void {
  s.run(
    `DELETE FROM confirmation WHERE created_at < ?
       AND (used_at IS NOT NULL OR key_hash IS NULL OR (expires_at IS NOT NULL AND expires_at <= ?))`,
    before,
    now,
  );
}
