// Navigation views (https://zulip.com/api/get-navigation-views): GET/POST /navigation_views, PATCH/DELETE
// /navigation_views/{fragment}; `navigation_view` events (add, update, remove) and register state.
import type { Ctx } from '../context.js';
import { ApiError, badRequest } from '../errors.js';
import type { StateOptions } from './state_options.js';
import { emit } from './event_types.js';
import type { NavigationView, NavigationViewChange, NavigationViewState } from './navigation_view_dicts.js';
import {
  deleteNavigationView,
  insertNavigationView,
  selectNavigationView,
  selectNavigationViewNameTaken,
  selectNavigationViews,
  updateNavigationViewName,
  updateNavigationViewPinned,
  type NavigationViewRow,
} from '../store/navigation_views.js';
import type { Actor } from './roles.js';

/** Zulip's BUILT_IN_VIEW_FRAGMENTS: these may be pinned or hidden, never named. */
const BUILT_IN_VIEW_FRAGMENTS: ReadonlySet<string> = new Set([
  'inbox',
  'recent',
  'feed',
  'drafts',
  'narrow/has/reaction/sender/me',
  'narrow/is/mentioned',
  'narrow/is/starred',
  'scheduled',
  'reminders',
]);

function formatView(row: NavigationViewRow): NavigationView {
  return { fragment: row.fragment, is_pinned: row.is_pinned === 1, name: row.name };
}

const alreadyExists = (): ApiError => badRequest('Navigation view already exists.');
const builtInNamed = (): ApiError => badRequest('Built-in views cannot have a custom name.');
// Code NOT_FOUND with Zulip's message; other users' views are invisible.
const doesNotExist = (): ApiError => new ApiError('NOT_FOUND', 'Navigation view does not exist.');

export function listNavigationViews(ctx: Ctx, actor: Actor): NavigationViewState {
  return { navigation_views: selectNavigationViews(ctx.store, actor.id).map(formatView) };
}

export interface AddNavigationViewInput {
  /** Already stripped and not blank. */
  fragment: string;
  isPinned: boolean;
  name?: string | undefined;
}

/** POST /navigation_views: checks in Zulip's order, then the `add` event. */
export function addNavigationView(ctx: Ctx, actor: Actor, input: AddNavigationViewInput): Record<string, never> {
  const name = input.name ?? null;
  const builtIn = BUILT_IN_VIEW_FRAGMENTS.has(input.fragment);
  if (builtIn && name !== null) throw builtInNamed();
  if (!builtIn && name === null) throw badRequest('Custom views must have a valid name.');
  return ctx.tx(() => {
    if (selectNavigationView(ctx.store, actor.id, input.fragment)) throw alreadyExists();
    if (name !== null && selectNavigationViewNameTaken(ctx.store, actor.id, name)) throw alreadyExists();
    insertNavigationView(ctx.store, actor.id, input.fragment, input.isPinned, name);
    const view: NavigationView = { fragment: input.fragment, is_pinned: input.isPinned, name };
    emit(ctx, [actor.id], { type: 'navigation_view', op: 'add', navigation_view: view });
    return {};
  });
}

export interface UpdateNavigationViewInput {
  /** As it came in the path, not stripped (Zulip does not strip path values). */
  fragment: string;
  isPinned?: boolean | undefined;
  name?: string | undefined;
}

/**
 * PATCH /navigation_views/{fragment}. Zulip's order: built-in name, then name taken (by any
 * view, the edited one included), then existence; sending neither field still saves and emits.
 */
export function updateNavigationView(ctx: Ctx, actor: Actor, input: UpdateNavigationViewInput): Record<string, never> {
  if (input.name !== undefined && BUILT_IN_VIEW_FRAGMENTS.has(input.fragment)) throw builtInNamed();
  return ctx.tx(() => {
    if (input.name !== undefined && selectNavigationViewNameTaken(ctx.store, actor.id, input.name)) throw alreadyExists();
    const view = selectNavigationView(ctx.store, actor.id, input.fragment);
    if (!view) throw doesNotExist();
    const data: NavigationViewChange = {};
    if (input.name !== undefined) {
      updateNavigationViewName(ctx.store, view.id, input.name);
      data.name = input.name;
    }
    if (input.isPinned !== undefined) {
      updateNavigationViewPinned(ctx.store, view.id, input.isPinned);
      data.is_pinned = input.isPinned;
    }
    emit(ctx, [actor.id], { type: 'navigation_view', op: 'update', fragment: view.fragment, data });
    return {};
  });
}

/** DELETE /navigation_views/{fragment}: a built-in view's row may go too (it is only a setting). */
export function removeNavigationView(ctx: Ctx, actor: Actor, input: { fragment: string }): Record<string, never> {
  return ctx.tx(() => {
    const view = selectNavigationView(ctx.store, actor.id, input.fragment);
    if (!view) throw doesNotExist();
    deleteNavigationView(ctx.store, view.id);
    emit(ctx, [actor.id], { type: 'navigation_view', op: 'remove', fragment: view.fragment });
    return {};
  });
}

/** POST /register state for this feature. */
export function fetchNavigationViewState(ctx: Ctx, actor: Actor, _options: StateOptions): NavigationViewState {
  return listNavigationViews(ctx, actor);
}
