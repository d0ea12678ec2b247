import { z } from 'zod';
import { ResetAnswer, SessionResponse } from '../../../contract/auth.js';
import { InviteSummary, InviteView, JoinAvailability, OwnInviteView } from '../../../contract/invites.js';
import { SessionView, SignOutOthersResult } from '../../../contract/sessions.js';
import { GetUserIdResponse, PrivateUser, PublicUser, UploadResponse } from '../../../contract/users.js';
import { json, noContent, type AnswerMap } from './shape.js';

/** Accounts, sessions, profiles, invites and profile pictures. */
export const userAnswers: AnswerMap = {
  'POST /api/auth/register': [json(201, SessionResponse, 'Registered and signed in (the session cookie is set too)')],
  'POST /api/auth/login': [json(200, SessionResponse, 'Signed in (the session cookie is set too)')],
  'POST /api/auth/forgot-password': [json(200, ResetAnswer, 'The same text whether or not the address has an account')],
  'POST /api/auth/reset-password': [json(200, ResetAnswer, 'The password is changed')],
  'GET /api/auth/me': [json(200, PrivateUser, 'The signed-in user'), noContent('A visitor: nobody is signed in', true)],
  'POST /api/auth/logout': [noContent('The session is over (if there was one)')],
  'GET /api/sessions': [json(200, z.array(SessionView), 'The live sessions, the current one first')],
  'POST /api/sessions/sign-out-others': [json(200, SignOutOthersResult, 'How many other sessions were ended')],
  'DELETE /api/sessions/:id': [noContent('The session is over')],
  'GET /api/users': [json(200, z.union([PrivateUser, PublicUser]), 'The user: the private shape for oneself, else the public one')],
  'GET /api/users/getId/:username': [json(200, GetUserIdResponse, "The user's id")],
  'PATCH /api/users/:id': [
    json(
      200,
      PrivateUser,
      'The updated user (a new email or password needs currentPassword; a new password also answers a new x-auth-token)',
    ),
  ],
  'GET /invites/accept/:inviteId': [json(200, z.array(InviteView).max(1), 'The invite while it can be used, else an empty list')],
  'GET /invites/:userId': [json(200, z.array(OwnInviteView), "The user's invites, each used one with who joined with it")],
  'GET /api/invites/join/:username': [json(200, JoinAvailability, "Whether a visitor can register with one of this person's invites")],
  'GET /api/invites/summary': [json(200, InviteSummary, "The signed-in user's invites at a glance")],
  'PUT /api/invites/settings': [json(200, PrivateUser, 'The user with the new setting')],
  'POST /api/upload': [json(200, UploadResponse, 'The new picture and the updated user')],
};
