// Zulip's LinkifierDict and the realm_linkifiers event, strict, as the linkifier tests check them.
import { z } from 'zod';

export const linkifierSchema = z
  .object({
    pattern: z.string(),
    url_template: z.string(),
    id: z.int(),
    example_input: z.string().nullable(),
    reverse_template: z.string().nullable(),
    alternative_url_templates: z.array(z.string()),
  })
  .strict();
export type Linkifier = z.infer<typeof linkifierSchema>;

export const linkifiersEventSchema = z
  .object({ id: z.int(), type: z.literal('realm_linkifiers'), realm_linkifiers: z.array(linkifierSchema) })
  .strict();
