// Uploaded files as their owner sees them and who else may download them (Zulip's
// zerver/lib/attachments.py): GET /attachments, DELETE /attachments/{attachment_id}, the
// `attachment` events (op add, update, remove), and claims (Zulip's claim_attachment: a message
// linking /user_uploads/<path_id> lets its readers download the file).
import type { Ctx } from '../context.js';
import { badRequest } from '../errors.js';
import {
  deleteAttachmentMessage,
  deleteAttachmentRow,
  insertAttachmentMessage,
  selectAttachmentById,
  selectAttachmentMessageIds,
  selectAttachmentMessages,
  selectAttachmentsByPathIds,
  selectAttachmentsOfOwner,
  selectMessageAttachments,
  selectUploadSpaceUsed,
  type AttachmentRow,
} from '../store/attachments.js';
import { selectMessageById } from '../store/messages.js';
import { newDictCache } from './message_dicts.js';
import { messageAccess } from './message_fetch.js';
import type { Actor } from './roles.js';
import type { AttachmentDict, AttachmentList } from './attachment_dicts.js';
import { emit } from './event_types.js';

/** Zulip's Attachment.to_dict, for several files with one query for their messages. */
function attachmentDicts(ctx: Ctx, rows: readonly AttachmentRow[]): AttachmentDict[] {
  const messages = new Map<number, { id: number; date_sent: number }[]>();
  for (const m of selectAttachmentMessages(ctx.store, rows.map((row) => row.id))) {
    const list = messages.get(m.attachment_id) ?? [];
    list.push({ id: m.message_id, date_sent: m.date_sent * 1000 });
    messages.set(m.attachment_id, list);
  }
  return rows.map((row) => ({
    id: row.id,
    name: row.file_name,
    path_id: row.path_id,
    size: row.size,
    create_time: row.create_time,
    messages: messages.get(row.id) ?? [],
  }));
}

/** Tells the owner a file was added or its messages changed (in the caller's transaction). */
export function notifyAttachment(ctx: Ctx, row: AttachmentRow, op: 'add' | 'update'): void {
  emit(ctx, [row.owner_id], { type: 'attachment', op, attachment: attachmentDicts(ctx, [row])[0]!, upload_space_used: selectUploadSpaceUsed(ctx.store) });
}

/** GET /attachments: the caller's files, and the bytes every uploaded file takes. */
export function listAttachments(ctx: Ctx, actor: Actor): AttachmentList {
  return { attachments: attachmentDicts(ctx, selectAttachmentsOfOwner(ctx.store, actor.id)), upload_space_used: selectUploadSpaceUsed(ctx.store) };
}

/** DELETE /attachments/{attachment_id}: the owner removes a file (messages linking it keep their text). */
export function removeAttachment(ctx: Ctx, actor: Actor, input: { attachmentId: number }): Record<string, never> {
  return ctx.tx(() => {
    const row = selectAttachmentById(ctx.store, input.attachmentId);
    if (!row || row.owner_id !== actor.id) throw badRequest('Invalid attachment');
    deleteAttachmentRow(ctx.store, row.id);
    emit(ctx, [row.owner_id], { type: 'attachment', op: 'remove', attachment: { id: row.id }, upload_space_used: selectUploadSpaceUsed(ctx.store) });
    return {};
  });
}

/**
 * Zulip's validate_attachment_request: its owner, or anyone who may read a message linking it
 * (received it, or may read the channel's history).
 */
export function mayDownload(ctx: Ctx, actor: { id: number; role: number }, row: AttachmentRow): boolean {
  if (actor.id === row.owner_id) return true;
  const cache = newDictCache();
  return selectAttachmentMessageIds(ctx.store, row.id).some((id) => {
    const message = selectMessageById(ctx.store, id);
    return message !== undefined && messageAccess(ctx, actor, message, cache) !== undefined;
  });
}

/** href="/user_uploads/<path_id>" and src="..." in rendered HTML (Zulip's potential_attachment_path_ids). */
const UPLOAD_LINK = /(?:href|src)="\/user_uploads\/([^"?#]+)"/g;

function linkedPathIds(html: string): string[] {
  const ids = new Set<string>();
  for (const match of html.matchAll(UPLOAD_LINK)) {
    try {
      ids.add(decodeURIComponent(match[1]!.replaceAll('&amp;', '&')));
    } catch {
      // Not a link to a file: malformed percent-encoding.
    }
  }
  return [...ids];
}

/**
 * Zulip's do_claim_attachments and check_attachment_reference_change, in the caller's
 * transaction: the message claims the files it links that its sender may download, and lets go
 * of those it no longer links. Each owner hears of their files' new message lists.
 */
export function updateClaims(ctx: Ctx, sender: { id: number; role: number }, messageId: number, html: string): void {
  const before = new Map(selectMessageAttachments(ctx.store, messageId).map((row) => [row.id, row]));
  const linked = selectAttachmentsByPathIds(ctx.store, linkedPathIds(html));
  const changed: AttachmentRow[] = [];
  for (const row of linked) {
    if (before.delete(row.id)) continue;
    if (!mayDownload(ctx, sender, row)) continue;
    insertAttachmentMessage(ctx.store, row.id, messageId);
    changed.push(row);
  }
  for (const row of before.values()) {
    deleteAttachmentMessage(ctx.store, row.id, messageId);
    changed.push(row);
  }
  for (const row of changed) notifyAttachment(ctx, row, 'update');
}

/** Before a message is deleted: it lets go of its files, and their owners hear of it. */
export function releaseClaims(ctx: Ctx, messageId: number): void {
  for (const row of selectMessageAttachments(ctx.store, messageId)) {
    deleteAttachmentMessage(ctx.store, row.id, messageId);
    notifyAttachment(ctx, row, 'update');
  }
}
