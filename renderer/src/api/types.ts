/**
 * Request and response shapes of the API calls the renderer makes. Where the API's schema
 * modules export a type it is re-exported from there (type-only: nothing of the server is
 * bundled), so the screens and the API cannot drift apart. The few shapes the API declares
 * outside its zod-only schema modules are written out here.
 */
import type { PrivateUser, PublicUser, UpdateUserRequest } from '../../../api/src/users/schemas';
import type { SessionResponse } from '../../../api/src/auth/schemas';
import type { LinkView } from '../../../api/src/links/schemas';
import type { MessageView } from '../../../api/src/realtime/events';

export type { LinkView, PrivateUser, PublicUser, SessionResponse, UpdateUserRequest };
export type { LoginRequest, RegisterRequest, WishlistItemSummary } from '../../../api/src/auth/schemas';
export type {
  BalanceResponse,
  DepositRequest,
  NewBalanceResponse,
  WithdrawalRequest,
} from '../../../api/src/wallet/schemas';
export type {
  AcceptLinkResponse,
  CreateLinkRequest,
  GiveResponse,
  LinkDetailsView,
  LinkMetricsView,
} from '../../../api/src/links/schemas';
export type { Amount, SearchProduct, SearchResults, ShippingOption } from '../../../api/src/catalog/schemas';
export type {
  PurchaseRequest,
  PurchaseResponse,
  TransactionResponse,
  UpdateWishlistRequest,
  WishlistItemView,
  WishlistResponse,
  WishlistView,
} from '../../../api/src/wishlists/schemas';

/** Every error answer of the API. */
export interface ApiErrorBody {
  error: string;
  message: string;
}

/** A user as they see themselves. `balance` is in dollars. */
export type User = PrivateUser;

/** `GET /api/users` answers the private shape for yourself, the public one for others. */
export type ProfileUser = PublicUser | PrivateUser;

export function isPrivateUser(user: ProfileUser): user is PrivateUser {
  return 'email' in user;
}

export type AuthResponse = SessionResponse;
export type LoginResponse = SessionResponse;
export type RegisterResponse = SessionResponse;

/** The profile fields the settings page edits (`userId` only names who is editing). */
export type EditableUserField = Exclude<keyof UpdateUserRequest, 'userId'>;

export interface GetUserIdResponse {
  userId: string;
}

export type PictureKind = 'profilePicture' | 'coverPhoto';

/** `POST /api/upload` (declared in the API's route, not in a schema module). */
export interface UploadResponse {
  urls: { location: string }[];
  user: PrivateUser;
}

export type InviteStatus = 'available' | 'used';

/** One entry of `GET /invites/accept/{code}`: non-empty means the invite is valid and free. */
export interface InviteCheck {
  _id: string;
  code: string;
  status: InviteStatus;
}

/** One of the signed-in user's invites; `url` is the full `/invite/{code}` URL (the API's InviteView). */
export interface Invite extends InviteCheck {
  url: string;
}

/** `GET /links/active-links/{username}`. */
export interface ActiveLinksResponse {
  totalLinks: number;
}

/** `POST /links/{username}`. */
export interface OpenLinkResponse {
  updatedLink: LinkView;
}

/** `GET /api/user-respond`. */
export interface RespondedResponse {
  responded: boolean;
}

// ---- conversations, messages, notifications and the socket -----------------------------------

export type {
  ConversationView,
  OtherPartyView,
} from '../../../api/src/conversations/presenter';
export type {
  ClientToServerEvents,
  LastMessageIdAck,
  LastMessageIdPayload,
  MessageView,
  MissedMessagesEvent,
  NewMessageEvent,
  NotificationView,
  RealtimeErrorBody,
  SendMessageAck,
  SendMessagePayload,
  ServerToClientEvents,
  UnreadCounts,
} from '../../../api/src/realtime/events';

/** `GET /messages/{conversationId}?page=`: one page, oldest first; opening it marks it read. */
export interface MessagesPage {
  messages: MessageView[];
  markedAsRead: number;
}

/** `POST /messages/send` (declared in the API's route). */
export interface SendMessageResponse {
  _id: string;
  message: MessageView;
}

/** `GET /messages/unread`. */
export interface UnreadMessagesResponse {
  unreadCount: number;
}

/** `PUT /api/read-notifications/{userId}`. */
export interface MarkNotificationsReadResponse {
  markedAsRead: number;
}
