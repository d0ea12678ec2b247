import { z } from 'zod';
import { nameRules, textRules } from './names.js';

const lower = (s: string) => s.toLowerCase();

/** Names that are paths of their own next to /links/{username} and /wishlists/{username}. */
const RESERVED_USERNAMES = new Set(['create', 'all', 'profile', 'active-links', 'update', 'purchase', 'get-transaction', 'find', 'unread', 'send']);

export const usernameSchema = z
  .string()
  .trim()
  .min(3, 'Username must be 3-15 characters.')
  .max(15, 'Username must be 3-15 characters.')
  .superRefine(nameRules('Username'))
  .regex(/^[A-Za-z0-9_.-]+$/, 'Username may only use letters, numbers, dots, dashes and underscores.')
  .transform(lower)
  .refine((name) => !RESERVED_USERNAMES.has(name), 'That username is taken.');

/** Text shown to others: names follow the name rules, the rest refuses hidden characters. */
const editText = (label: string, rules = textRules(label)) =>
  z.string().trim().max(40, `${label} must be at most 40 characters.`).superRefine(rules);

export const UserIdParams = z.object({ id: z.string().min(1).max(64) });

export const UserLookupQuery = z
  .object({
    username: z.string().trim().min(1).max(40).transform(lower).optional(),
    userId: z.string().min(1).max(64).optional(),
  })
  .refine((q) => q.username !== undefined || q.userId !== undefined, {
    message: 'Give a username or a userId.',
  });

export const UsernameParams = z.object({ username: z.string().trim().min(1).max(40).transform(lower) });

export const UpdateUserBody = z.object({
  userId: z.string().optional(),
  username: usernameSchema.optional(),
  displayName: editText('Display name', nameRules('Display name')).optional(),
  email: z
    .string()
    .trim()
    .min(5, 'Email must be 5-40 characters.')
    .max(40, 'Email must be 5-40 characters.')
    .pipe(z.email('Please enter a valid email address.'))
    .transform(lower)
    .optional(),
  bio: editText('Bio').optional(),
  location: editText('Location').optional(),
  /** A blank password is ignored. */
  password: z
    .string()
    .max(35, 'Password must be 6-35 characters.')
    .refine((p) => p === '' || p.length >= 6, 'Password must be 6-35 characters.')
    .transform((p) => (p === '' ? undefined : p))
    .optional(),
});
export type UpdateUserRequest = z.input<typeof UpdateUserBody>;

/** What the owner sees of themselves. */
export interface PrivateUser {
  _id: string;
  username: string;
  email: string;
  displayName: string;
  bio: string;
  location: string;
  profilePicture: string | null;
  coverPicture: string | null;
  isSubscribed: boolean;
  stripeCustomerId: string | null;
  /** Dollars. */
  balance: number;
}

/** What anyone else sees: never email, balance or payment ids. */
export type PublicUser = Omit<PrivateUser, 'email' | 'stripeCustomerId' | 'balance'>;
