// Uploaded files as answers and events: Zulip's Attachment (https://zulip.com/api/get-attachments),
// the answers of POST /user_uploads and of the temporary URL, and the `attachment` events
// (https://zulip.com/api/get-events#attachment-add), which only the file's owner receives.
import { z } from 'zod';

export const attachmentSchema = z.object({
  id: z.int(),
  name: z.string(),
  path_id: z.string(),
  size: z.int(),
  create_time: z.int().describe('Milliseconds since the epoch'),
  messages: z.array(z.object({ id: z.int(), date_sent: z.int().describe('Milliseconds since the epoch') })),
});
export type AttachmentDict = z.infer<typeof attachmentSchema>;

/** GET /attachments: the caller's files, and the bytes every uploaded file takes. */
export const attachmentListSchema = z.object({ attachments: z.array(attachmentSchema), upload_space_used: z.int() });
export type AttachmentList = z.infer<typeof attachmentListSchema>;

/** POST /user_uploads. */
export const uploadAnswerSchema = z.object({ uri: z.string().describe('Deprecated alias of url'), url: z.string(), filename: z.string() });
export type UploadAnswer = z.infer<typeof uploadAnswerSchema>;

/** GET /api/v1/user_uploads/{realm_id}/{path}: a URL that works without credentials for a while. */
export const temporaryUrlSchema = z.object({ url: z.string() });
export type TemporaryUrl = z.infer<typeof temporaryUrlSchema>;

export const attachmentEventSchemas = [
  z.object({ type: z.literal('attachment'), op: z.enum(['add', 'update']), attachment: attachmentSchema, upload_space_used: z.int() }),
  z.object({ type: z.literal('attachment'), op: z.literal('remove'), attachment: z.object({ id: z.int() }), upload_space_used: z.int() }),
] as const;
