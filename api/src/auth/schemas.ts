import { z } from 'zod';
import { usernameSchema, type PrivateUser } from '../users/schemas.js';

export const RegisterBody = z.object({
  username: usernameSchema,
  email: z
    .string()
    .trim()
    .min(5, 'Email must be 5-35 characters.')
    .max(35, 'Email must be 5-35 characters.')
    .pipe(z.email('Please enter a valid email address.'))
    .transform((s) => s.toLowerCase()),
  password: z.string().min(6, 'Password must be 6-35 characters.').max(35, 'Password must be 6-35 characters.'),
  inviteCode: z.string().trim().min(1, 'An invite is required to register.').max(64, 'Invalid or expired invite link.'),
});
export type RegisterRequest = z.input<typeof RegisterBody>;

export const LoginBody = z.object({
  email: z
    .string()
    .trim()
    .min(1, 'Email is required.')
    .max(254, 'Incorrect login information')
    .transform((s) => s.toLowerCase()),
  password: z.string().min(6, 'Password must be at least 6 characters.').max(1024, 'Incorrect login information'),
});
export type LoginRequest = z.input<typeof LoginBody>;

export interface WishlistItemSummary {
  _id: string;
  imageUrl: string;
}

export interface SessionResponse {
  token: string;
  user: PrivateUser;
  wishlistItems: WishlistItemSummary[];
}
