// Zulip's LinkifierDict and the realm_linkifiers event, strict, as the linkifier tests check them.
import { z } from 'zod';
import { linkifierSchema as domainLinkifierSchema } from '../lib/domain/realm_dicts.js';

// The domain's schema, strict: an answer with a field Zulip does not send fails.
export const linkifierSchema = domainLinkifierSchema.strict();
export type Linkifier = z.infer<typeof linkifierSchema>;

export const linkifiersEventSchema = z
  .object({ id: z.int(), type: z.literal('realm_linkifiers'), realm_linkifiers: z.array(linkifierSchema) })
  .strict();
