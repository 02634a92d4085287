// Every test server's stored events, as a client receives them (lib/events/shape.ts with
// apply_markdown and bulk_message_deletion), must be exactly one of lib/domain/event_types.ts's
// schemas: every field described, none missing, none extra. test/helpers.ts runs the check when a
// server closes; test/stored_events.test.ts shows that it catches a wrong event.
import type Database from 'better-sqlite3';
import { z } from 'zod';
import { zulipEventSchema } from '../lib/domain/event_types.js';
import type { DeliveredEvent } from '../lib/events/event.js';
import { shapeForClient } from '../lib/events/shape.js';

/** The schema with every object closed (z.strictObject), however deep; loose objects stay loose. */
export function strictSchema<T extends z.ZodType>(schema: T): T {
  return closed(schema) as T;
}

function closed(schema: z.ZodType): z.ZodType {
  const def = schema.def as z.ZodType['def'] & Record<string, any>;
  switch (def.type) {
    case 'object': {
      const object = schema as z.ZodObject;
      const shape = Object.fromEntries(Object.entries(object.shape).map(([key, value]) => [key, closed(value as z.ZodType)]));
      return def.catchall === undefined ? z.strictObject(shape) : z.object(shape).catchall(def.catchall as z.ZodType);
    }
    case 'array':
      return z.array(closed(def.element));
    case 'union':
      return def.discriminator === undefined
        ? z.union(def.options.map(closed))
        : z.discriminatedUnion(def.discriminator, def.options.map(closed));
    case 'optional':
      return closed(def.innerType).optional();
    case 'nullable':
      return closed(def.innerType).nullable();
    case 'record':
      return z.record(def.keyType, closed(def.valueType));
    case 'intersection':
      return z.intersection(closed(def.left), closed(def.right));
    default:
      return schema;
  }
}

/** Events of these schemas as GET /events delivers them (with their id), closed as strictSchema does. */
export function deliveredSchema<T extends readonly z.ZodObject[]>(schemas: T): z.ZodType<z.infer<T[number]> & { id: number }> {
  const options = schemas.map((schema) => closed(schema.extend({ id: z.int() })));
  return z.union(options as [z.ZodType, ...z.ZodType[]]) as unknown as z.ZodType<z.infer<T[number]> & { id: number }>;
}

export interface StoredEventFailure {
  id: number;
  type: string;
  message: string;
}

/** A schema's strict options by the `type` each takes (a union's options, or the schema), and those of any type. */
interface Dispatch {
  byType: Map<string, z.ZodType[]>;
  anyType: z.ZodType[];
}

// Made once per schema: closing every object of the union is the costly part.
const dispatches = new WeakMap<z.ZodType, Dispatch>();

function dispatch(schema: z.ZodType): Dispatch {
  const made = dispatches.get(schema);
  if (made) return made;
  const strict = strictSchema(schema);
  const d: Dispatch = { byType: new Map(), anyType: [] };
  for (const option of strict instanceof z.ZodUnion ? (strict.options as z.ZodType[]) : [strict]) {
    const type: unknown = option instanceof z.ZodObject ? option.shape.type : undefined;
    if (!(type instanceof z.ZodLiteral)) {
      d.anyType.push(option);
      continue;
    }
    for (const value of type.values) d.byType.set(String(value), [...(d.byType.get(String(value)) ?? []), option]);
  }
  dispatches.set(schema, d);
  return d;
}

/** The stored events (each distinct payload once) that `schema`, made strict, does not accept. */
export function storedEventFailures(db: Database.Database, schema: z.ZodType = zulipEventSchema): StoredEventFailure[] {
  const d = dispatch(schema);
  const seen = new Set<string>();
  const failures: StoredEventFailure[] = [];
  for (const row of db.prepare('SELECT id, type, payload FROM event ORDER BY id').all() as { id: number; type: string; payload: string }[]) {
    if (seen.has(row.payload)) continue;
    seen.add(row.payload);
    const stored = { ...(JSON.parse(row.payload) as DeliveredEvent), id: row.id };
    const { id: _id, ...event } = shapeForClient(stored, { applyMarkdown: true, bulkMessageDeletion: true });
    const options = [...(d.byType.get(String(event.type)) ?? []), ...d.anyType];
    if (options.some((option) => option.safeParse(event).success)) continue;
    const op = typeof event.op === 'string' ? ` op ${event.op}` : '';
    failures.push({ id: row.id, type: row.type, message: `event ${row.id} (${row.type}${op}): ${explain(options, event)}` });
  }
  return failures;
}

/** Why none of the event type's schemas accepts it: the issues of those of its op. */
function explain(options: readonly z.ZodType[], event: Record<string, unknown>): string {
  const sameOp = options.filter((option) => {
    const op = option instanceof z.ZodObject ? (option.shape.op as z.ZodType | undefined) : undefined;
    return op === undefined || op.safeParse(event.op).success;
  });
  if (sameOp.length === 0) return 'no schema describes this type and op';
  return sameOp.map((option) => z.prettifyError(option.safeParse(event).error!).replaceAll('\n', ' ')).join(' | or: ');
}

/** Throws (failing the test that closes the server) when a stored event is not as its schema says. */
export function checkStoredEvents(db: Database.Database): void {
  const failures = storedEventFailures(db);
  if (failures.length > 0) {
    throw new Error(`stored events not as lib/domain/event_types.ts says:\n${failures.map((f) => f.message).join('\n')}`);
  }
}
