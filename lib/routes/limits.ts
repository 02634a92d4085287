// Limits on parameters that Zulip does not bound, so that no request can
// make parley hold a write lock for long, store an unbounded value or echo one back (docs/http.md
// "Limits"). Over a limit: 400 `x is too long (limit: N items)` / `(limit: N characters)`.
// Limits Zulip itself has live with their rules (MAX_ALERT_WORD_LENGTH, MAX_FLAG_MESSAGES, ...).

/** alert_words of POST and DELETE /users/me/alert_words. */
export const MAX_ALERT_WORDS_PER_REQUEST = 1000;
/** drafts of POST /drafts. */
export const MAX_DRAFTS_PER_REQUEST = 1000;
/** subscriptions of POST and DELETE /users/me/subscriptions. */
export const MAX_CHANNELS_PER_REQUEST = 1000;
/**
 * Lists of users: principals, a user group's members/add/delete, a draft's `to`, the `to` of a
 * direct message.
 */
export const MAX_USERS_PER_REQUEST = 1000;
/** Terms of a narrow (GET /messages, POST /register). */
export const MAX_NARROW_TERMS = 100;
/** event_types and fetch_event_types of POST /register (Zulip has fewer than 100 event types). */
export const MAX_EVENT_TYPES = 200;
/** ordered_linkifier_ids of PATCH /realm/linkifiers. */
export const MAX_LINKIFIER_IDS = 10_000;
/** alternative_url_templates of a linkifier. */
export const MAX_ALTERNATIVE_URL_TEMPLATES = 100;

/** An email address (RFC 5321's path limit; Django's EmailField). */
export const MAX_EMAIL_LENGTH = 254;
/** A password (POST /users, POST /fetch_api_key). */
export const MAX_PASSWORD_LENGTH = 1000;
/** encrypted_push_registration of POST /mobile_push/register (a sealed box of a device token). */
export const MAX_ENCRYPTED_PUSH_REGISTRATION_LENGTH = 10_000;
/**
 * Names, identifiers and patterns without a limit of their own: linkifier texts, navigation view
 * fragments and names, status emoji fields, event types, queue ids, push key and token fields,
 * a bot's short name, a channel name looked up by GET /get_stream_id, an anchor.
 */
export const MAX_TEXT_LENGTH = 1000;

type Payload = { value: unknown; issues: unknown[] };

/** A list limit for a union of list schemas (zod would only say `Invalid x`); runs once the value parsed. */
export function itemsAtMost(limit: number) {
  return (payload: Payload): void => {
    if (Array.isArray(payload.value) && payload.value.length > limit) {
      payload.issues.push({ code: 'too_big', origin: 'array', maximum: limit, inclusive: true, input: payload.value });
    }
  };
}

/** A code-point limit for the strings a union schema accepts; runs once the value parsed. */
export function charsAtMost(limit: number) {
  return (payload: Payload): void => {
    if (typeof payload.value === 'string' && [...payload.value].length > limit) {
      payload.issues.push({ code: 'too_big', origin: 'string', maximum: limit, inclusive: true, input: payload.value });
    }
  };
}
