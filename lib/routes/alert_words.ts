// GET, POST and DELETE /users/me/alert_words.
import { z } from 'zod';
import { MAX_ALERT_WORD_LENGTH, addAlertWords, listAlertWords, removeAlertWords } from '../domain/alert_words.js';
import { alertWordsSchema } from '../domain/user_dicts.js';
import { json, maxCodePoints } from '../http/params.js';
import { MAX_ALERT_WORDS_PER_REQUEST } from './limits.js';
import { route } from './route.js';

export const alertWordRoutes = {
  list: route({
    method: 'GET',
    path: '/users/me/alert_words',
    access: 'user',
    summary: "The calling user's alert words",
    params: {},
    response: alertWordsSchema,
    handler: (ctx, { actor }) => listAlertWords(ctx, actor),
  }),
  add: route({
    method: 'POST',
    path: '/users/me/alert_words',
    transactional: true,
    access: 'user',
    summary: 'Add alert words',
    params: {
      // The limit applies before stripping, as in Zulip.
      alertWords: json(z.array(maxCodePoints(MAX_ALERT_WORD_LENGTH)).max(MAX_ALERT_WORDS_PER_REQUEST)).describe(
        `JSON list of words or phrases, at most ${MAX_ALERT_WORDS_PER_REQUEST}`,
      ),
    },
    response: alertWordsSchema,
    errors: ['BAD_REQUEST'],
    handler: (ctx, { actor }, p) => addAlertWords(ctx, actor, p),
  }),
  remove: route({
    method: 'DELETE',
    path: '/users/me/alert_words',
    transactional: true,
    access: 'user',
    summary: 'Remove alert words (case-insensitive; unknown words are ignored)',
    params: {
      alertWords: json(z.array(z.string()).max(MAX_ALERT_WORDS_PER_REQUEST)).describe(
        `JSON list of words or phrases, at most ${MAX_ALERT_WORDS_PER_REQUEST}`,
      ),
    },
    response: alertWordsSchema,
    errors: ['BAD_REQUEST'],
    handler: (ctx, { actor }, p) => removeAlertWords(ctx, actor, p),
  }),
};
