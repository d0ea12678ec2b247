import { z } from 'zod';
import { ForgotPasswordBody, LoginBody, RegisterBody, ResetAnswer, ResetPasswordBody, SessionResponse } from '../auth.js';
import {
  InviteOwnerParams,
  InviteParams,
  InviteSummary,
  InviteView,
  JoinAvailability,
  JoinParams,
  JoinSettingBody,
  OwnInviteView,
} from '../invites.js';
import { SessionParams, SessionView, SignOutOthersResult } from '../sessions.js';
import {
  GetUserIdResponse,
  PrivateUser,
  PublicUser,
  UpdateUserBody,
  UploadResponse,
  UserIdParams,
  UserLookupQuery,
  UsernameParams,
} from '../users.js';
import { jpeg, json, noContent, type RouteSpec } from '../route-table.js';

/** Accounts, sessions, profiles, invites and profile pictures. */
export const userRoutes = {
  'POST /api/auth/register': {
    body: RegisterBody,
    answers: [json(201, SessionResponse, 'Registered and signed in (the session cookie is set too)')],
  },
  'POST /api/auth/login': { body: LoginBody, answers: [json(200, SessionResponse, 'Signed in (the session cookie is set too)')] },
  'POST /api/auth/forgot-password': {
    body: ForgotPasswordBody,
    answers: [json(200, ResetAnswer, 'The same text whether or not the address has an account')],
  },
  'POST /api/auth/reset-password': { body: ResetPasswordBody, answers: [json(200, ResetAnswer, 'The password is changed')] },
  'GET /api/auth/me': { answers: [json(200, PrivateUser, 'The signed-in user'), noContent('A visitor: nobody is signed in', true)] },
  'POST /api/auth/logout': { answers: [noContent('The session is over (if there was one)')] },
  'GET /api/sessions': { answers: [json(200, z.array(SessionView), 'The live sessions, the current one first')] },
  'POST /api/sessions/sign-out-others': { answers: [json(200, SignOutOthersResult, 'How many other sessions were ended')] },
  'DELETE /api/sessions/:id': { params: SessionParams, answers: [noContent('The session is over')] },
  'GET /api/users': {
    query: UserLookupQuery,
    answers: [json(200, z.union([PrivateUser, PublicUser]), 'The user: the private shape for oneself, else the public one')],
  },
  'GET /api/users/getId/:username': { params: UsernameParams, answers: [json(200, GetUserIdResponse, "The user's id")] },
  'PATCH /api/users/:id': {
    params: UserIdParams,
    body: UpdateUserBody,
    answers: [
      json(
        200,
        PrivateUser,
        'The updated user (a new email or password needs currentPassword; a new password also answers a new x-auth-token; giftsPaused pauses or resumes gifts)',
      ),
    ],
  },
  'GET /invites/accept/:inviteId': {
    params: InviteParams,
    answers: [json(200, z.array(InviteView).max(1), 'The invite while it can be used, else an empty list')],
  },
  'GET /invites/:userId': {
    params: InviteOwnerParams,
    answers: [json(200, z.array(OwnInviteView), "The user's invites, each used one with who joined with it")],
  },
  'GET /api/invites/join/:username': {
    params: JoinParams,
    answers: [json(200, JoinAvailability, "Whether a visitor can register with one of this person's invites")],
  },
  'GET /api/invites/summary': { answers: [json(200, InviteSummary, "The signed-in user's invites at a glance")] },
  'PUT /api/invites/settings': { body: JoinSettingBody, answers: [json(200, PrivateUser, 'The user with the new setting')] },
  'GET /uploads/:name': { answers: [jpeg('An uploaded picture')] },
  // Multipart (`file` and `pfpOrCover`): the handler reads its fields itself, after the file is received.
  'POST /api/upload': { answers: [json(200, UploadResponse, 'The new picture and the updated user')] },
} satisfies Record<string, RouteSpec>;
