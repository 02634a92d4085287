// Zulip's navigation view (https://zulip.com/api/get-navigation-views), the `navigation_view`
// events (https://zulip.com/api/get-events#navigation_view-add) and the register state.
import { z } from 'zod';

const navigationViewSchema = z.object({ fragment: z.string(), is_pinned: z.boolean(), name: z.string().nullable() });
export type NavigationView = z.infer<typeof navigationViewSchema>;

/** GET /navigation_views, and the `navigation_views` state of POST /register. */
export const navigationViewStateSchema = z.object({ navigation_views: z.array(navigationViewSchema) });
export type NavigationViewState = z.infer<typeof navigationViewStateSchema>;

/** The changed fields of an `update` event (Zulip's document allows null for either). */
const navigationViewChangeSchema = z.object({ name: z.string().exactOptional(), is_pinned: z.boolean().exactOptional() });
export type NavigationViewChange = z.infer<typeof navigationViewChangeSchema>;

export const navigationViewEventSchemas = [
  z.object({ type: z.literal('navigation_view'), op: z.literal('add'), navigation_view: navigationViewSchema }),
  z.object({ type: z.literal('navigation_view'), op: z.literal('update'), fragment: z.string(), data: navigationViewChangeSchema }),
  z.object({ type: z.literal('navigation_view'), op: z.literal('remove'), fragment: z.string() }),
] as const;
