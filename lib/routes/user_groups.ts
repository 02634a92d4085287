// User groups: POST /user_groups/create, GET /user_groups, POST /user_groups/{user_group_id}/members.
import { z } from 'zod';
import {
  MAX_GROUP_DESCRIPTION_LENGTH,
  createUserGroup,
  createUserGroupAnswerSchema,
  listUserGroups,
  listUserGroupsAnswerSchema,
  requireMemberOrAdmin,
  updateUserGroupMembers,
} from '../domain/user_groups.js';
import { json, maxCodePoints, pathInt, str } from '../http/params.js';
import { MAX_USERS_PER_REQUEST } from './limits.js';
import { noFields, route } from './route.js';

const userIds = json(z.array(z.int()).max(MAX_USERS_PER_REQUEST));

export const userGroupRoutes = {
  create: route({
    method: 'POST',
    path: '/user_groups/create',
    transactional: true,
    access: 'user',
    summary: 'Create a user group',
    before: (_ctx, actor) => requireMemberOrAdmin(actor),
    params: {
      name: str(),
      description: str(maxCodePoints(MAX_GROUP_DESCRIPTION_LENGTH)),
      members: userIds,
    },
    response: createUserGroupAnswerSchema,
    errors: ['BAD_REQUEST'],
    handler: (ctx, { actor }, p) => createUserGroup(ctx, actor, p),
  }),
  list: route({
    method: 'GET',
    path: '/user_groups',
    access: 'user',
    summary: "The organization's user groups",
    before: (_ctx, actor) => requireMemberOrAdmin(actor),
    params: {},
    response: listUserGroupsAnswerSchema,
    handler: (ctx, { actor }) => listUserGroups(ctx, actor),
  }),
  updateMembers: route({
    method: 'POST',
    path: '/user_groups/:user_group_id/members',
    transactional: true,
    access: 'user',
    summary: "Add and remove a group's members (administrators and the group's creator)",
    before: (_ctx, actor) => requireMemberOrAdmin(actor),
    params: { userGroupId: pathInt(), add: userIds.optional(), delete: userIds.optional() },
    errors: ['BAD_REQUEST'],
    response: noFields,
    handler: (ctx, { actor }, p) => updateUserGroupMembers(ctx, actor, p),
  }),
};
