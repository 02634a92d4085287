// Linkifiers: POST /realm/filters, PATCH and DELETE /realm/filters/{filter_id}, GET and PATCH
// /realm/linkifiers, the realm_linkifiers event and its /register state.
import type { Ctx } from '../context.js';
import { badRequest } from '../errors.js';
import type { StateOptions } from './state_options.js';
import {
  deleteLinkifierRow,
  insertLinkifier,
  selectLinkifier,
  selectLinkifierIdByPattern,
  selectLinkifiers,
  selectNextLinkifierOrder,
  updateLinkifierOrder,
  updateLinkifierRow,
  type LinkifierRow,
} from '../store/linkifiers.js';
import { checkLinkifier, optionalText, type LinkifierValues } from './linkifier_validation.js';
import { requireAdmin, type Actor } from './roles.js';
import { emit } from './event_types.js';
import type { Linkifier, LinkifierState } from './realm_dicts.js';

export interface LinkifierInput {
  pattern: string;
  urlTemplate: string;
  /** Absent: unchanged on update (null on creation); empty: none. */
  exampleInput?: string | null | undefined;
  reverseTemplate?: string | null | undefined;
  alternativeUrlTemplates?: readonly string[] | undefined;
}

function formatLinkifier(row: LinkifierRow): Linkifier {
  return {
    pattern: row.pattern,
    url_template: row.url_template,
    id: row.id,
    example_input: row.example_input,
    reverse_template: row.reverse_template,
    alternative_url_templates: JSON.parse(row.alternative_url_templates) as string[],
  };
}

function orderedLinkifiers(ctx: Ctx): Linkifier[] {
  return selectLinkifiers(ctx.store).map(formatLinkifier);
}

/** GET /realm/linkifiers. */
export function listLinkifiers(ctx: Ctx): { linkifiers: Linkifier[] } {
  return { linkifiers: orderedLinkifiers(ctx) };
}

/** POST /register: the list only for clients that accept URL templates; realm_filters is always empty. */
export function fetchLinkifierState(ctx: Ctx, _actor: Actor, options: StateOptions): LinkifierState {
  const supported = options.clientCapabilities.linkifier_url_template === true;
  return { realm_linkifiers: supported ? orderedLinkifiers(ctx) : [], realm_filters: [] };
}

function valuesOf(input: LinkifierInput, current?: LinkifierRow): LinkifierValues {
  const keep = <T>(given: T | undefined, old: T): T => (given === undefined ? old : given);
  return {
    pattern: input.pattern.trim(),
    urlTemplate: input.urlTemplate.trim(),
    exampleInput: optionalText(keep(input.exampleInput, current?.example_input ?? null)),
    reverseTemplate: optionalText(keep(input.reverseTemplate, current?.reverse_template ?? null)),
    alternativeUrlTemplates:
      input.alternativeUrlTemplates === undefined
        ? current === undefined
          ? []
          : (JSON.parse(current.alternative_url_templates) as string[])
        : input.alternativeUrlTemplates.map((template) => template.trim()),
  };
}

function fieldsOf(values: LinkifierValues) {
  return {
    pattern: values.pattern,
    url_template: values.urlTemplate,
    example_input: values.exampleInput,
    reverse_template: values.reverseTemplate,
    alternative_url_templates: JSON.stringify(values.alternativeUrlTemplates),
  };
}

/** Every change: the full list to everyone (the triggers of schema.sql renew the render caches' version). */
function changed(ctx: Ctx): void {
  emit(ctx, null, { type: 'realm_linkifiers', realm_linkifiers: orderedLinkifiers(ctx) });
}

/** POST /realm/filters: the new linkifier goes last. */
export function addLinkifier(ctx: Ctx, actor: Actor, input: LinkifierInput): { id: number } {
  requireAdmin(actor);
  const values = valuesOf(input);
  return ctx.tx(() => {
    checkLinkifier(values, (pattern) => selectLinkifierIdByPattern(ctx.store, pattern) !== undefined);
    const id = insertLinkifier(ctx.store, fieldsOf(values), selectNextLinkifierOrder(ctx.store));
    changed(ctx);
    return { id };
  });
}

const notFound = () => badRequest('Linkifier not found.');

/** PATCH /realm/filters/{filter_id}: pattern and url_template are required; the order stays. */
export function updateLinkifier(ctx: Ctx, actor: Actor, input: LinkifierInput & { filterId: number }): Record<string, never> {
  requireAdmin(actor);
  return ctx.tx(() => {
    const current = selectLinkifier(ctx.store, input.filterId);
    if (current === undefined) throw notFound();
    const values = valuesOf(input, current);
    checkLinkifier(values, (pattern) => {
      const owner = selectLinkifierIdByPattern(ctx.store, pattern);
      return owner !== undefined && owner !== current.id;
    });
    updateLinkifierRow(ctx.store, current.id, fieldsOf(values));
    changed(ctx);
    return {};
  });
}

/** DELETE /realm/filters/{filter_id}: the others keep their order. */
export function removeLinkifier(ctx: Ctx, actor: Actor, input: { filterId: number }): Record<string, never> {
  requireAdmin(actor);
  return ctx.tx(() => {
    if (deleteLinkifierRow(ctx.store, input.filterId) === 0) throw notFound();
    changed(ctx);
    return {};
  });
}

/** PATCH /realm/linkifiers: the list must name every linkifier exactly once; the index is the new order. */
export function reorderLinkifiers(ctx: Ctx, actor: Actor, input: { orderedLinkifierIds: readonly number[] }): Record<string, never> {
  requireAdmin(actor);
  const ids = input.orderedLinkifierIds;
  const unique = new Set(ids);
  if (unique.size < ids.length) throw badRequest('The ordered list must not contain duplicated linkifiers');
  return ctx.tx(() => {
    const existing = selectLinkifiers(ctx.store);
    if (existing.length !== unique.size || existing.some((row) => !unique.has(row.id))) {
      throw badRequest('The ordered list must enumerate all existing linkifiers exactly once');
    }
    // Nothing to reorder: no event, as in Zulip.
    if (existing.length === 0) return {};
    ids.forEach((id, index) => updateLinkifierOrder(ctx.store, id, index));
    changed(ctx);
    return {};
  });
}
