// POST /user_uploads, the files at /user_uploads/{realm_id}/{path} (outside /api/v1, credentials
// as for the API, like Zulip's override_api_url_scheme), their temporary URLs
// (GET /api/v1/user_uploads/...) and GET /user_uploads/temporary/{token}/{filename}; GET
// /attachments and DELETE /attachments/{attachment_id}.
import { listAttachments, removeAttachment } from '../domain/attachments.js';
import { attachmentListSchema, temporaryUrlSchema, uploadAnswerSchema } from '../domain/attachment_dicts.js';
import { downloadFile, downloadWithToken, maxUploadBytes, temporaryFileUrl, uploadFile, type DownloadableFile } from '../domain/uploads.js';
import { FORBIDDEN } from '../errors.js';
import { pathInt, pathStr } from '../http/params.js';
import { RawResponse, contentDisposition } from '../http/respond.js';
import { noFields, route } from './route.js';

/**
 * Never active content: a download unless the type is one browsers only display, no sniffing, and
 * a sandbox without any source should a browser render it anyway.
 */
function fileResponse(file: DownloadableFile): RawResponse {
  return new RawResponse(
    200,
    {
      'Content-Type': file.contentType,
      'Content-Length': String(file.size),
      'Content-Disposition': contentDisposition(file.inline ? 'inline' : 'attachment', file.fileName),
      'X-Content-Type-Options': 'nosniff',
      'Content-Security-Policy': "default-src 'none'; sandbox",
      // A path is never reused for other bytes (Zulip: private, immutable).
      'Cache-Control': 'private, immutable',
    },
    file.body,
  );
}

const filePath = { realmId: pathStr(), path: pathStr().describe('The rest of the path_id, e.g. 4e/m2A3MSqFnWRLUf9SaPzQ0Up_/zulip.txt') };

export const uploadRoutes = {
  upload: route({
    method: 'POST',
    path: '/user_uploads',
    access: 'user',
    summary: 'Upload one file (multipart); only its uploader may download it until a message links it',
    params: {},
    response: uploadAnswerSchema,
    errors: ['BAD_REQUEST'],
    uploads: 'One file, under any field name',
    uploadBytes: maxUploadBytes,
    spoolUploads: true,
    asynchronous: true,
    handler: (ctx, { actor }, _p, request) => uploadFile(ctx, actor, { files: request.files }),
  }),
  download: route({
    method: 'GET',
    path: '/user_uploads/:realm_id/*',
    outsideApi: true,
    access: 'user',
    summary: 'An uploaded file, to its uploader and to those who may read a message linking it',
    params: filePath,
    errors: ['NOT_FOUND', FORBIDDEN],
    rawResponse: 'application/octet-stream',
    handler: (ctx, { actor }, p) => fileResponse(downloadFile(ctx, actor, p)),
  }),
  // Zulip's names for the same two parts of the path.
  temporaryUrl: route({
    method: 'GET',
    path: '/user_uploads/:realm_id_str/*',
    access: 'user',
    summary: 'A URL that serves an uploaded file without credentials for 60 seconds',
    params: { realmIdStr: pathStr(), filename: pathStr().describe('The rest of the path_id, e.g. 4e/m2A3MSqFnWRLUf9SaPzQ0Up_/zulip.txt') },
    response: temporaryUrlSchema,
    errors: ['NOT_FOUND', FORBIDDEN],
    handler: (ctx, { actor }, p) => temporaryFileUrl(ctx, actor, { realmId: p.realmIdStr, path: p.filename }),
  }),
  temporary: route({
    method: 'GET',
    path: '/user_uploads/temporary/:token/:filename',
    outsideApi: true,
    access: 'public',
    summary: 'An uploaded file at its temporary URL',
    params: { token: pathStr(), filename: pathStr() },
    errors: ['BAD_REQUEST', 'NOT_FOUND'],
    rawResponse: 'application/octet-stream',
    handler: (ctx, _caller, p) => fileResponse(downloadWithToken(ctx, p)),
  }),
  attachments: route({
    method: 'GET',
    path: '/attachments',
    access: 'user',
    summary: "The caller's uploaded files, with the messages linking them",
    params: {},
    response: attachmentListSchema,
    handler: (ctx, { actor }) => listAttachments(ctx, actor),
  }),
  removeAttachment: route({
    method: 'DELETE',
    path: '/attachments/:attachment_id',
    transactional: true,
    access: 'user',
    summary: 'Delete one of your uploaded files',
    params: { attachmentId: pathInt() },
    response: noFields,
    errors: ['BAD_REQUEST'],
    handler: (ctx, { actor }, p) => removeAttachment(ctx, actor, p),
  }),
};
