// Every kind of delivery parley sends (lib/deliveries/): the list createChatServer starts its
// runner with. A feature that sends something out of the process adds its kind here.
import type { DeliveryKind } from '../deliveries/outbox.js';
import { emailDelivery } from './email.js';
import { pushRegistrationDelivery } from './push_bouncer.js';
import { missedMessageEmailDelivery } from '../notifications/email.js';
import { notificationHookDelivery } from '../notifications/hook.js';
import { pushMessageDelivery, pushRemoveDelivery } from '../notifications/push.js';
import { webPushMessageDelivery } from '../notifications/web_push.js';
import { outgoingWebhookDelivery } from '../integrations/outgoing_delivery.js';

export const DELIVERY_KINDS: readonly DeliveryKind<unknown>[] = [
  pushRegistrationDelivery,
  emailDelivery,
  pushMessageDelivery,
  pushRemoveDelivery,
  missedMessageEmailDelivery,
  notificationHookDelivery,
  webPushMessageDelivery,
  outgoingWebhookDelivery,
];
