// PATCH /realm (Zulip's update_realm, zerver/views/realm.py) for the organization settings parley
// has: its name and description. Administrators only (the route's access); each property that
// changes is written and told to every active user in a realm update event.
import { z } from 'zod';
import type { Ctx } from '../context.js';
import { selectActiveUserIds, updateRealmDescription, updateRealmName } from '../store/users.js';
import { emit } from './event_types.js';
import { getRealm } from './realm.js';
import type { Actor } from './roles.js';

/** Zulip's Realm.MAX_REALM_NAME_LENGTH and MAX_REALM_DESCRIPTION_LENGTH. */
export const MAX_REALM_NAME_LENGTH = 40;
export const MAX_REALM_DESCRIPTION_LENGTH = 1000;

/** Zulip's answer: each property that changed, a string one as "updated". */
export const updateRealmAnswerSchema = z.object({
  name: z.literal('updated').optional().describe('Present when the name changed'),
  description: z.literal('updated').optional().describe('Present when the description changed'),
});
type UpdateRealmAnswer = z.infer<typeof updateRealmAnswerSchema>;

export function updateRealm(ctx: Ctx, _actor: Actor, input: { name?: string | undefined; description?: string | undefined }): UpdateRealmAnswer {
  return ctx.tx(() => {
    const realm = getRealm(ctx);
    const answer: UpdateRealmAnswer = {};
    // Zulip's do_set_realm_property: a value equal to the current one changes nothing, tells no one.
    const changed = (property: 'name' | 'description', value: string | undefined, write: (value: string) => void) => {
      if (value === undefined || value === realm[property]) return;
      write(value);
      emit(ctx, selectActiveUserIds(ctx.store), { type: 'realm', op: 'update', property, value });
      answer[property] = 'updated';
    };
    changed('name', input.name, (name) => updateRealmName(ctx.store, name));
    changed('description', input.description, (description) => updateRealmDescription(ctx.store, description));
    return answer;
  });
}
