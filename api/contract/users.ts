import { z } from 'zod';
import { dollars, idSchema, isoTime, usernameRef } from './common.js';
import {
  EDIT_FIELD_MAX_LENGTH,
  EMAIL_MIN_LENGTH,
  PASSWORD_MAX_LENGTH,
  PASSWORD_MIN_LENGTH,
  USERNAME_MAX_LENGTH,
  USERNAME_MIN_LENGTH,
} from './limits.js';
import { nameRules, textRules } from './names.js';

const lower = (s: string) => s.toLowerCase();

/** Names that are paths of their own next to /links/{username} and /wishlists/{username}. */
const RESERVED_USERNAMES = new Set([
  'create',
  'all',
  'profile',
  'active-links',
  'update',
  'purchase',
  'get-transaction',
  'find',
  'unread',
  'send',
]);

const USERNAME_LENGTH = `Username must be ${USERNAME_MIN_LENGTH}-${USERNAME_MAX_LENGTH} characters.`;
export const PASSWORD_LENGTH = `Password must be ${PASSWORD_MIN_LENGTH}-${PASSWORD_MAX_LENGTH} characters.`;

export const usernameSchema = z
  .string()
  .trim()
  .min(USERNAME_MIN_LENGTH, USERNAME_LENGTH)
  .max(USERNAME_MAX_LENGTH, USERNAME_LENGTH)
  .superRefine(nameRules('Username'))
  .regex(/^[A-Za-z0-9_.-]+$/, 'Username may only use letters, numbers, dots, dashes and underscores.')
  .transform(lower)
  .refine((name) => !RESERVED_USERNAMES.has(name), 'That username is taken.');

/** An email address of `min`-`max` characters, lower-cased. */
export const emailSchema = (min: number, max: number) =>
  z
    .string()
    .trim()
    .min(min, `Email must be ${min}-${max} characters.`)
    .max(max, `Email must be ${min}-${max} characters.`)
    // The browser's own email field rule (HTML's valid e-mail address), so what it accepts registers: `a@b.c`.
    .pipe(z.email({ pattern: z.regexes.html5Email, message: 'Please enter a valid email address.' }))
    .transform(lower);

/** Text shown to others: names follow the name rules, the rest refuses hidden characters. */
const editText = (label: string, rules = textRules(label)) =>
  z.string().trim().max(EDIT_FIELD_MAX_LENGTH, `${label} must be at most ${EDIT_FIELD_MAX_LENGTH} characters.`).superRefine(rules);

export const UserIdParams = z.object({ id: idSchema });

export const UserLookupQuery = z
  .object({
    username: usernameRef.optional(),
    userId: idSchema.optional(),
  })
  .refine((q) => q.username !== undefined || q.userId !== undefined, {
    message: 'Give a username or a userId.',
  });

export const UsernameParams = z.object({ username: usernameRef });

/** PATCH /api/users/{id}: the settings page's edits (each field at most 40 characters). */
export const UpdateUserBody = z.object({
  userId: z.string().optional(),
  username: usernameSchema.optional(),
  displayName: editText('Display name', nameRules('Display name')).optional(),
  email: emailSchema(EMAIL_MIN_LENGTH, EDIT_FIELD_MAX_LENGTH).optional(),
  bio: editText('Bio').optional(),
  location: editText('Location').optional(),
  /** A blank password is ignored. */
  password: z
    .string()
    .max(PASSWORD_MAX_LENGTH, PASSWORD_LENGTH)
    .refine((p) => p === '' || p.length >= PASSWORD_MIN_LENGTH, PASSWORD_LENGTH)
    .transform((p) => (p === '' ? undefined : p))
    .optional(),
  /** Required with a new email or password, as deleting the account asks for it. */
  currentPassword: z.string().max(PASSWORD_MAX_LENGTH, PASSWORD_LENGTH).optional(),
  showPresence: z.boolean().optional(),
  /** Pauses (true) or resumes (false) gifts to the user's link and wishlist. */
  giftsPaused: z.boolean().optional(),
});
export type UpdateUserRequest = z.input<typeof UpdateUserBody>;

/** What anyone sees of a user: never email, balance or payment ids. */
export const PublicUser = z.object({
  _id: z.string(),
  username: z.string(),
  displayName: z.string(),
  bio: z.string(),
  location: z.string(),
  profilePicture: z.string().nullable(),
  coverPicture: z.string().nullable(),
  isSubscribed: z.boolean(),
});
export type PublicUser = z.infer<typeof PublicUser>;

/** What the owner sees of themselves. */
export const PrivateUser = PublicUser.extend({
  email: z.string(),
  stripeCustomerId: z.string().nullable(),
  /** Dollars. */
  balance: dollars,
  /** Dollars that can be withdrawn now (`GET /api/auth/me` only; the rest is on hold). */
  available: dollars.optional(),
  /** Dollars on hold (`GET /api/auth/me` only). */
  onHold: dollars.optional(),
  /** When the first held money becomes available (`GET /api/auth/me` only); null when nothing is held. */
  nextReleaseAt: isoTime.nullable().optional(),
  /** Dollars still owed after a disputed card payment (`GET /api/auth/me` only). */
  owed: dollars.optional(),
  /** Visitors of the user's links may join with one of their invites (`PUT /api/invites/settings`). */
  letVisitorsJoin: z.boolean(),
  /** People the user talks with by name may see when they are online (`GET /api/onlineusers/{id}`); off by default. */
  showPresence: z.boolean(),
  /** The user's link and wishlist take no gifts for now (`PATCH /api/users/{id}`). */
  giftsPaused: z.boolean(),
});
export type PrivateUser = z.infer<typeof PrivateUser>;

/** `GET /api/users/getId/{username}`. */
export const GetUserIdResponse = z.object({ userId: z.string() });
export type GetUserIdResponse = z.infer<typeof GetUserIdResponse>;

/** Which picture `POST /api/upload` replaces (its `pfpOrCover` field). */
export type PictureKind = 'profilePicture' | 'coverPhoto';

/** `POST /api/upload` (multipart: `file` and `pfpOrCover`). */
export const UploadResponse = z.object({ urls: z.array(z.object({ location: z.string() })), user: PrivateUser });
export type UploadResponse = z.infer<typeof UploadResponse>;
