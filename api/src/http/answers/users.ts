import { z } from 'zod';
import type { ResetAnswer, SessionResponse, WishlistItemSummary } from '../../../contract/auth.js';
import type { InviteSummary, InviteView, JoinAvailability } from '../../../contract/invites.js';
import type { SessionView, SignOutOthersResult } from '../../../contract/sessions.js';
import type { GetUserIdResponse, PrivateUser, PublicUser, UploadResponse } from '../../../contract/users.js';
import { count, isoTime, json, noContent, shape, type AnswerMap } from './shape.js';

export const PublicUserSchema = shape<PublicUser>()(
  z.object({
    _id: z.string(),
    username: z.string(),
    displayName: z.string(),
    bio: z.string(),
    location: z.string(),
    profilePicture: z.string().nullable(),
    coverPicture: z.string().nullable(),
    isSubscribed: z.boolean(),
  }),
);

export const PrivateUserSchema = shape<PrivateUser>()(
  PublicUserSchema.extend({
    email: z.string(),
    stripeCustomerId: z.string().nullable(),
    balance: z.number(),
    letVisitorsJoin: z.boolean(),
    showPresence: z.boolean(),
  }),
);

const WishlistItemSummarySchema = shape<WishlistItemSummary>()(z.object({ _id: z.string(), imageUrl: z.string() }));

const SessionResponseSchema = shape<SessionResponse>()(
  z.object({ token: z.string(), user: PrivateUserSchema, wishlistItems: z.array(WishlistItemSummarySchema) }),
);

const ResetAnswerSchema = shape<ResetAnswer>()(z.object({ message: z.string() }));

const SessionViewSchema = shape<SessionView>()(
  z.object({ id: z.string(), device: z.string(), createdAt: isoTime, lastSeenAt: isoTime, current: z.boolean() }),
);

const SignOutOthersSchema = shape<SignOutOthersResult>()(z.object({ signedOut: count }));

const GetUserIdSchema = shape<GetUserIdResponse>()(z.object({ userId: z.string() }));

export const InviteViewSchema = shape<InviteView>()(
  z.object({ _id: z.string(), code: z.string(), status: z.enum(['available', 'used']), url: z.string() }),
);

const JoinAvailabilitySchema = shape<JoinAvailability>()(z.object({ available: z.boolean(), displayName: z.string().nullable() }));

const InviteSummarySchema = shape<InviteSummary>()(
  z.object({ available: count, max: count, nextInviteAt: isoTime.nullable(), refillDays: z.number(), letVisitorsJoin: z.boolean() }),
);

const UploadResponseSchema = shape<UploadResponse>()(
  z.object({ urls: z.array(z.object({ location: z.string() })), user: PrivateUserSchema }),
);

/** Accounts, sessions, profiles, invites and profile pictures. */
export const userAnswers: AnswerMap = {
  'POST /api/auth/register': [json(201, SessionResponseSchema, 'Registered and signed in (the session cookie is set too)')],
  'POST /api/auth/login': [json(200, SessionResponseSchema, 'Signed in (the session cookie is set too)')],
  'POST /api/auth/forgot-password': [json(200, ResetAnswerSchema, 'The same text whether or not the address has an account')],
  'POST /api/auth/reset-password': [json(200, ResetAnswerSchema, 'The password is changed')],
  'GET /api/auth/me': [json(200, PrivateUserSchema, 'The signed-in user'), noContent('A visitor: nobody is signed in', true)],
  'POST /api/auth/logout': [noContent('The session is over (if there was one)')],
  'GET /api/sessions': [json(200, z.array(SessionViewSchema), 'The live sessions, the current one first')],
  'POST /api/sessions/sign-out-others': [json(200, SignOutOthersSchema, 'How many other sessions were ended')],
  'DELETE /api/sessions/:id': [noContent('The session is over')],
  'GET /api/users': [
    json(200, z.union([PrivateUserSchema, PublicUserSchema]), 'The user: the private shape for oneself, else the public one'),
  ],
  'GET /api/users/getId/:username': [json(200, GetUserIdSchema, "The user's id")],
  'PATCH /api/users/:id': [
    json(
      200,
      PrivateUserSchema,
      'The updated user (a new email or password needs currentPassword; a new password also answers a new x-auth-token)',
    ),
  ],
  'GET /invites/accept/:inviteId': [json(200, z.array(InviteViewSchema).max(1), 'The invite while it can be used, else an empty list')],
  'GET /invites/:userId': [json(200, z.array(InviteViewSchema), "The user's invites")],
  'GET /api/invites/join/:username': [
    json(200, JoinAvailabilitySchema, "Whether a visitor can register with one of this person's invites"),
  ],
  'GET /api/invites/summary': [json(200, InviteSummarySchema, "The signed-in user's invites at a glance")],
  'PUT /api/invites/settings': [json(200, PrivateUserSchema, 'The user with the new setting')],
  'POST /api/upload': [json(200, UploadResponseSchema, 'The new picture and the updated user')],
};
