/**
 * Request and response shapes of the API calls the renderer makes.
 * Kept in one place so they can be swapped for the types the API's zod schemas export.
 */

/** Every error answer of the API. */
export interface ApiErrorBody {
  error: string;
  message: string;
}

/** A user as others see them. */
export interface PublicUser {
  _id: string;
  username: string;
  displayName: string;
  bio: string;
  location: string;
  profilePicture: string | null;
  coverPicture: string | null;
  isSubscribed: boolean;
}

/** A user as they see themselves. `balance` is in dollars. */
export interface User extends PublicUser {
  email: string;
  stripeCustomerId: string | null;
  balance: number;
}

/** `GET /api/users` answers the private shape for yourself, the public one for others. */
export type ProfileUser = PublicUser | User;

export function isPrivateUser(user: ProfileUser): user is User {
  return 'email' in user;
}

export interface WishlistItemSummary {
  _id?: string;
  itemId?: string;
  imageUrl?: string;
}

export interface LoginRequest {
  email: string;
  password: string;
}

export interface AuthResponse {
  token: string;
  user: User;
  wishlistItems: WishlistItemSummary[];
}

export type LoginResponse = AuthResponse;

export interface RegisterRequest {
  username: string;
  email: string;
  password: string;
  inviteCode: string;
}

export type RegisterResponse = AuthResponse;

export interface UpdateUserRequest {
  username?: string;
  displayName?: string;
  email?: string;
  bio?: string;
  location?: string;
  password?: string;
}

export type EditableUserField = keyof UpdateUserRequest;

export interface GetUserIdResponse {
  userId: string;
}

export type PictureKind = 'profilePicture' | 'coverPhoto';

export interface UploadResponse {
  urls: { location: string }[];
  user: User;
}

export type InviteStatus = 'available' | 'used';

/** One entry of `GET /invites/accept/{code}`: non-empty means the invite is valid and free. */
export interface InviteCheck {
  _id: string;
  code: string;
  status: InviteStatus;
}

/** One of the signed-in user's invites; `url` is the full `/invite/{code}` URL. */
export interface Invite extends InviteCheck {
  url: string;
}
