// GET /realm/emoji, POST and DELETE /realm/emoji/{emoji_name}, and the images at their source_url
// (/user_avatars/1/emoji/images/<file>, outside /api/v1, no credentials, like Zulip's uploads).
import {
  checkMayUploadEmoji,
  deactivateRealmEmoji,
  emojiBytes,
  getRealmEmojiImage,
  listRealmEmoji,
  uploadRealmEmoji,
} from '../domain/realm_emoji.js';
import { realmEmojiListSchema } from '../domain/realm_dicts.js';
import { RESOURCE_NOT_FOUND } from '../errors.js';
import { pathInt, pathStr } from '../http/params.js';
import { RawResponse } from '../http/respond.js';
import { noFields, route } from './route.js';

export const realmEmojiRoutes = {
  list: route({
    method: 'GET',
    path: '/realm/emoji',
    access: 'user',
    summary: 'Every custom emoji, deactivated ones included, keyed by id',
    params: {},
    response: realmEmojiListSchema,
    handler: (ctx) => listRealmEmoji(ctx),
  }),
  // `*`: Zulip's <path:emoji_name> also takes names with slashes (and refuses them by name rules).
  upload: route({
    method: 'POST',
    path: '/realm/emoji/*',
    access: 'user',
    summary: 'Add a custom emoji: one image file (PNG, GIF, JPEG, WebP or AVIF) in a multipart body',
    params: { emojiName: pathStr().describe('Lowercase letters, digits, dashes, underscores; spaces become underscores') },
    response: noFields,
    errors: ['BAD_REQUEST'],
    uploads: 'One image file, under any field name',
    uploadBytes: emojiBytes,
    // Guests and bots are refused before their upload is read.
    before: (_ctx, actor) => checkMayUploadEmoji(actor),
    asynchronous: true,
    handler: (ctx, { actor }, p, request) => uploadRealmEmoji(ctx, actor, { emojiName: p.emojiName, files: request.files }),
  }),
  deactivate: route({
    method: 'DELETE',
    path: '/realm/emoji/*',
    transactional: true,
    access: 'user',
    summary: 'Deactivate a custom emoji (administrators, or its author)',
    params: { emojiName: pathStr() },
    response: noFields,
    errors: ['BAD_REQUEST', RESOURCE_NOT_FOUND],
    handler: (ctx, { actor }, p) => deactivateRealmEmoji(ctx, actor, p),
  }),
  image: route({
    method: 'GET',
    path: '/user_avatars/:realm_id/emoji/images/:file_name',
    outsideApi: true,
    access: 'public',
    summary: "A custom emoji's image (its source_url)",
    params: { realmId: pathInt(), fileName: pathStr() },
    errors: ['NOT_FOUND'],
    rawResponse: 'image/*',
    handler: (ctx, _caller, p) => {
      const { contentType, image } = getRealmEmojiImage(ctx, p);
      // A file name is never reused for other content, so caches may keep it for good.
      return new RawResponse(200, {
        'Content-Type': contentType,
        'Content-Length': String(image.length),
        'Cache-Control': 'public, max-age=31536000, immutable',
        'X-Content-Type-Options': 'nosniff',
      }, image);
    },
  }),
};
