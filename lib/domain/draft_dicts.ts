// Zulip's draft dictionary (https://zulip.com/api/get-drafts), the answers of the draft endpoints,
// the `drafts` events (https://zulip.com/api/get-events#drafts-add) and the `drafts` register state.
import { z } from 'zod';

export const draftTypeSchema = z.enum(['', 'stream', 'private']);
export type DraftType = z.infer<typeof draftTypeSchema>;

export const draftSchema = z.object({
  id: z.int(),
  type: draftTypeSchema,
  to: z.array(z.int()),
  topic: z.string(),
  content: z.string(),
  timestamp: z.int(),
});
export type Draft = z.infer<typeof draftSchema>;

/** GET /drafts. */
export const draftListSchema = z.object({ count: z.int(), drafts: z.array(draftSchema) });
export type DraftList = z.infer<typeof draftListSchema>;
/** POST /drafts: the new drafts' ids, in the request's order. */
export const draftIdsSchema = z.object({ ids: z.array(z.int()) });
export type DraftIds = z.infer<typeof draftIdsSchema>;

/** POST /register: the newest drafts. */
export const draftStateSchema = z.object({ drafts: z.array(draftSchema) });
export type DraftState = z.infer<typeof draftStateSchema>;

export const draftEventSchemas = [
  z.object({ type: z.literal('drafts'), op: z.literal('add'), drafts: z.array(draftSchema) }),
  z.object({ type: z.literal('drafts'), op: z.literal('update'), draft: draftSchema }),
  z.object({ type: z.literal('drafts'), op: z.literal('remove'), draft_id: z.int() }),
] as const;
