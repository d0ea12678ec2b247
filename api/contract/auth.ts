import { z } from 'zod';
import { EMAIL_MAX_LENGTH, EMAIL_MIN_LENGTH, PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from './limits.js';
import { INCORRECT_LOGIN, INVITE_INVALID, RESET_LINK_INVALID } from './texts.js';
import { DATE_OF_BIRTH_INVALID } from './account-texts.js';
import { PASSWORD_LENGTH, PrivateUser, emailSchema, usernameSchema } from './users.js';
import { usernameRef } from './common.js';

const INVITE_REQUIRED = 'An invite is required to register.';

/** Registration refuses anyone younger, on their birthday's date in UTC. */
export const ADULT_AGE = 18;
/** No one living was born before this year: an earlier one is a typing slip. */
const EARLIEST_BIRTH_YEAR = 1900;

/** A calendar date as a native date input sends it, `YYYY-MM-DD`; whether it has come yet is the server's to say, by its clock. */
const dateOfBirthSchema = z.iso
  .date({ error: DATE_OF_BIRTH_INVALID })
  .refine((date) => Number(date.slice(0, 4)) >= EARLIEST_BIRTH_YEAR, DATE_OF_BIRTH_INVALID);

/** POST /api/auth/register. */
export const RegisterBody = z
  .object({
    username: usernameSchema,
    email: emailSchema(EMAIL_MIN_LENGTH, EMAIL_MAX_LENGTH),
    password: z.string().min(PASSWORD_MIN_LENGTH, PASSWORD_LENGTH).max(PASSWORD_MAX_LENGTH, PASSWORD_LENGTH),
    /** Checked against ADULT_AGE, then kept only as 'adult' and the year. */
    dateOfBirth: dateOfBirthSchema,
    /** An invite code, or else… */
    inviteCode: z.string().trim().min(1, INVITE_REQUIRED).max(64, INVITE_INVALID).optional(),
    /** …the username of the link creator whose invite a visitor from their link uses (`/register?via=`). */
    via: usernameRef.optional(),
  })
  .refine((body) => body.inviteCode !== undefined || body.via !== undefined, { message: INVITE_REQUIRED, path: ['inviteCode'] });
export type RegisterRequest = z.input<typeof RegisterBody>;

/** POST /api/auth/login. Over-long input is simply a wrong login. */
export const LoginBody = z.object({
  email: z
    .string()
    .trim()
    .min(1, 'Email is required.')
    .max(254, INCORRECT_LOGIN)
    .transform((s) => s.toLowerCase()),
  password: z.string().min(PASSWORD_MIN_LENGTH, `Password must be at least ${PASSWORD_MIN_LENGTH} characters.`).max(1024, INCORRECT_LOGIN),
});
export type LoginRequest = z.input<typeof LoginBody>;

export const WishlistItemSummary = z.object({ _id: z.string(), imageUrl: z.string() });
export type WishlistItemSummary = z.infer<typeof WishlistItemSummary>;

/** What login and registration answer (they also set the session cookie). */
export const SessionResponse = z.object({ token: z.string(), user: PrivateUser, wishlistItems: z.array(WishlistItemSummary) });
export type SessionResponse = z.infer<typeof SessionResponse>;

/** POST /api/auth/forgot-password: always answered with RESET_LINK_SENT (an over-long address simply has no account). */
export const ForgotPasswordBody = z.object({
  email: z
    .string()
    .trim()
    .min(1, 'Email is required.')
    .max(254, 'Please enter a valid email address.')
    .transform((s) => s.toLowerCase()),
});
export type ForgotPasswordRequest = z.input<typeof ForgotPasswordBody>;

/** POST /api/auth/reset-password: the token from the emailed link and the new password (the register rules). */
export const ResetPasswordBody = z.object({
  token: z.string().min(1, RESET_LINK_INVALID).max(128, RESET_LINK_INVALID),
  password: z.string().min(PASSWORD_MIN_LENGTH, PASSWORD_LENGTH).max(PASSWORD_MAX_LENGTH, PASSWORD_LENGTH),
});
export type ResetPasswordRequest = z.input<typeof ResetPasswordBody>;

/** What both reset steps answer: a text to show. */
export const ResetAnswer = z.object({ message: z.string() });
export type ResetAnswer = z.infer<typeof ResetAnswer>;
