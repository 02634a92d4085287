// SQL for the invitation and invitation_stream tables (lib/accounts/invites.ts): email invitations
// and reusable invitation links, their channels, and what the daily limit counts.
import type { Store } from './db.js';

export interface InvitationRow {
  id: number;
  /** null: a reusable invitation link. */
  email: string | null;
  invited_by: number;
  invited_as: number;
  include_realm_default_subscriptions: number;
  notify_referrer_on_join: number;
  created_at: number;
  expires_at: number | null;
  /** 0 pending, 1 used, 2 revoked. */
  status: number;
  created_user_id: number | null;
}

export const INVITATION_STATUS = { pending: 0, used: 1, revoked: 2 } as const;

export function insertInvitation(
  s: Store,
  row: Omit<InvitationRow, 'id' | 'status' | 'created_user_id'>,
  streamIds: readonly number[],
): number {
  const id = Number(
    s.run(
      `INSERT INTO invitation (email, invited_by, invited_as, include_realm_default_subscriptions, notify_referrer_on_join, created_at, expires_at)
       VALUES (?, ?, ?, ?, ?, ?, ?)`,
      row.email,
      row.invited_by,
      row.invited_as,
      row.include_realm_default_subscriptions,
      row.notify_referrer_on_join,
      row.created_at,
      row.expires_at,
    ).lastInsertRowid,
  );
  for (const streamId of streamIds) s.run('INSERT OR IGNORE INTO invitation_stream (invitation_id, stream_id) VALUES (?, ?)', id, streamId);
  return id;
}

export function selectInvitation(s: Store, id: number): InvitationRow | undefined {
  return s.get<InvitationRow>('SELECT * FROM invitation WHERE id = ?', id);
}

/** Pending, unexpired invitations (all, or those `invitedBy` made), oldest first. */
export function selectValidInvitations(s: Store, now: number, invitedBy: number | null): InvitationRow[] {
  return s.all<InvitationRow>(
    `SELECT * FROM invitation WHERE status = 0 AND (expires_at IS NULL OR expires_at > ?) AND (? IS NULL OR invited_by = ?) ORDER BY id`,
    now,
    invitedBy,
    invitedBy,
  );
}

export function selectInvitationStreamIds(s: Store, invitationId: number): number[] {
  return s.all<{ stream_id: number }>('SELECT stream_id FROM invitation_stream WHERE invitation_id = ? ORDER BY stream_id', invitationId).map((r) => r.stream_id);
}

export function updateInvitationStatus(s: Store, id: number, status: number, createdUserId: number | null = null): void {
  s.run('UPDATE invitation SET status = ?, created_user_id = coalesce(?, created_user_id) WHERE id = ?', status, createdUserId, id);
}

/** The pending email invitations of an address (revoked once it joins), but `exceptId`. */
export function selectPendingInvitationIdsForEmail(s: Store, email: string, exceptId: number | null): number[] {
  return s
    .all<{ id: number }>('SELECT id FROM invitation WHERE email = ? AND status = 0 AND id IS NOT ?', email, exceptId)
    .map((r) => r.id);
}

/** Email invitations made since `since` (the organization's daily limit). */
export function countEmailInvitationsSince(s: Store, since: number): number {
  return s.get<{ n: number }>('SELECT count(*) AS n FROM invitation WHERE created_at > ? AND email IS NOT NULL', since)!.n;
}
