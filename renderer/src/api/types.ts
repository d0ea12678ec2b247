/**
 * Request and response shapes of the API calls the renderer makes: the contract shared with the
 * API (`api/contract/`), type-only, so nothing of it is bundled and the screens and the API
 * cannot drift apart. The renderer never imports the server's own modules (`api/src`).
 */
import type { PrivateUser, PublicUser, UpdateUserRequest } from '../../../api/contract/users';
import type { SessionResponse } from '../../../api/contract/auth';
import type { OwnInviteView } from '../../../api/contract/invites';

export type { ApiErrorBody } from '../../../api/contract/common';
export type { LoginRequest, RegisterRequest, SessionResponse } from '../../../api/contract/auth';
export type { PictureKind, PrivateUser, PublicUser, UpdateUserRequest } from '../../../api/contract/users';
export type {
  ActiveLinksResponse,
  CreateLinkRequest,
  LinkDetailsView,
  VisitorBreakdownView,
  LinkView,
  RespondedResponse,
} from '../../../api/contract/links';
export type { SearchProduct } from '../../../api/contract/catalog';
export type {
  ArchiveItemRequest,
  PurchaseRequest,
  UpdateWishlistRequest,
  WishlistItemView,
  WishlistView,
} from '../../../api/contract/wishlists';
export type { ConversationView, MessagesPage, ReturnGiftResponse } from '../../../api/contract/conversations';
export type { NotificationView } from '../../../api/contract/notifications';
export type {
  BalanceEvent,
  ClientToServerEvents,
  MessageView,
  MissedMessagesEvent,
  NewMessageEvent,
  RealtimeErrorBody,
  ServerToClientEvents,
  UnreadCounts,
} from '../../../api/contract/realtime';

/** A user as they see themselves. `balance` is in dollars. */
export type User = PrivateUser;

/** `GET /api/users` answers the private shape for yourself, the public one for others. */
export type ProfileUser = PublicUser | PrivateUser;

export type AuthResponse = SessionResponse;

/** The profile fields the settings page edits (`userId` only names who is editing; the others are not fields of their own). */
export type EditableUserField = Exclude<keyof UpdateUserRequest, 'userId' | 'currentPassword' | 'showPresence' | 'giftsPaused'>;

/** One of the signed-in user's invites, with its full `/invite/{code}` URL and who used it. */
export type Invite = OwnInviteView;
