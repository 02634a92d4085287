// GET /static/generated/emoji/{file_name}: the emoji data file at server_emoji_data_url (outside
// /api/v1, no credentials: Zulip's clients fetch it without them).
import { getEmojiDataFile } from '../domain/emoji_data.js';
import { pathStr } from '../http/params.js';
import { RawResponse } from '../http/respond.js';
import { route } from './route.js';

export const emojiDataRoutes = {
  file: route({
    method: 'GET',
    path: '/static/generated/emoji/:file_name',
    outsideApi: true,
    access: 'public',
    summary: 'The Unicode emoji names by code (server_emoji_data_url of POST /register)',
    params: { fileName: pathStr().describe('emoji_api.<hash>.json, as server_emoji_data_url names it') },
    errors: ['NOT_FOUND'],
    rawResponse: 'application/json',
    handler: (_ctx, _caller, p) => {
      const file = getEmojiDataFile(p.fileName);
      // The name changes with the content, so caches may keep it for good.
      return new RawResponse(200, {
        'Content-Type': 'application/json',
        'Cache-Control': 'public, max-age=31536000, immutable',
        'X-Content-Type-Options': 'nosniff',
      }, file.body);
    },
  }),
};
