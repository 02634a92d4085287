// A notification as the embedding application's hook receives it (options.notify,
// chat.notifications.subscribe; lib/notifications/hook.ts): who, why, the message and its
// conversation.
import { z } from 'zod';
import { notificationTriggerSchema } from './triggers.js';

export const chatNotificationSchema = z.object({
  recipient: z.object({ user_id: z.int(), email: z.string(), full_name: z.string() }),
  trigger: notificationTriggerSchema.describe('The push trigger, else the email one'),
  push_trigger: notificationTriggerSchema.nullable().describe('Zulip would push to the recipient\'s phones, for this reason'),
  email_trigger: notificationTriggerSchema.nullable().describe('Zulip would email the recipient after the batching period if still unread'),
  message: z.object({
    id: z.int(),
    sender_id: z.int(),
    sender_full_name: z.string(),
    timestamp: z.int(),
    content: z.string().describe('Markdown'),
    rendered_content: z.string().describe('HTML'),
    text: z.string().describe("Plain text, as a phone shows it (Zulip's get_mobile_push_content)"),
  }),
  conversation: z.discriminatedUnion('type', [
    z.object({ type: z.literal('channel'), channel_id: z.int(), channel_name: z.string(), topic: z.string() }),
    z.object({ type: z.literal('direct'), user_ids: z.array(z.int()) }),
  ]),
  mentioned_user_group: z.object({ id: z.int(), name: z.string() }).nullable(),
  url: z.string().describe("The conversation in parley's web client"),
});
/** A notification parley decided on (createChatServer's `notify`, chat.notifications.subscribe). */
export type ChatNotification = z.infer<typeof chatNotificationSchema>;
