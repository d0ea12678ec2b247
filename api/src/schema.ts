import type { Schema } from './db/index.js';
import { AlertEntity, AlertPreferenceEntity } from './alerts/entity.js';
import { PushSubscriptionEntity } from './push/entity.js';
import { AnalyticsEventEntity } from './analytics/entity.js';
import { PasswordResetEntity, SessionEntity } from './auth/entity.js';
import { BlockEntity } from './blocks/entity.js';
import { CatalogMetaEntity, CatalogProductEntity } from './catalog/entity.js';
import { AnonymousPseudonymEntity, ConversationEntity, CounterEntity, MessageEntity } from './conversations/entity.js';
import { InviteEntity, LinkJoinEntity } from './invites/entity.js';
import { IdempotencyRecordEntity } from './http/idempotency-entity.js';
import { JobLeaseEntity } from './jobs/entity.js';
import { LinkEntity, LinkResponseEntity, LinkViewDayEntity, LinkVisitorEntity } from './links/entity.js';
import { ReportEntity } from './moderation/entity.js';
import {
  DisputeEntity,
  GiftReceiptEntity,
  HeldLotEntity,
  LedgerAccountEntity,
  LedgerEntryEntity,
  LedgerTransferEntity,
} from './money/entity.js';
import { NotificationEntity } from './notifications/entity.js';
import { AddressEntity, OrderEntity } from './orders/entity.js';
import { SandboxObjectEntity } from './payments/entity.js';
import { StripeEventEntity, SubscriptionEntity } from './subscriptions/entity.js';
import { UserEntity } from './users/entity.js';
import { PaymentIntentEntity } from './wallet/entity.js';
import { PayoutAccountEntity } from './payouts/entity.js';
import { WishlistEntity, WishlistItemEntity } from './wishlists/entity.js';
import { Initial1763870000000 } from './db/migrations/1763870000000-initial.js';
import { Ledger1763870100000 } from './db/migrations/1763870100000-ledger.js';
import { Catalog1763870200000 } from './db/migrations/1763870200000-catalog.js';
import { Links1763870300000 } from './db/migrations/1763870300000-links.js';
import { Wishlists1763870400000 } from './db/migrations/1763870400000-wishlists.js';
import { MessageSeq1763870500000 } from './db/migrations/1763870500000-message-seq.js';
import { ConversationIdentity1763870600000 } from './db/migrations/1763870600000-conversation-identity.js';
import { Sessions1763870700000 } from './db/migrations/1763870700000-sessions.js';
import { ViewDedupe1763870800000 } from './db/migrations/1763870800000-view-dedupe.js';
import { Analytics1763870900000 } from './db/migrations/1763870900000-analytics.js';
import { Orders1763871000000 } from './db/migrations/1763871000000-orders.js';
import { GroupGifts1763871100000 } from './db/migrations/1763871100000-group-gifts.js';
import { WishlistArchive1763871200000 } from './db/migrations/1763871200000-wishlist-archive.js';
import { InviteRefill1763871300000 } from './db/migrations/1763871300000-invite-refill.js';
import { Subscriptions1763871500000 } from './db/migrations/1763871500000-subscriptions.js';
import { StripeEvents1763871600000 } from './db/migrations/1763871600000-stripe-events.js';
import { PaymentIntents1763871700000 } from './db/migrations/1763871700000-payment-intents.js';
import { Blocks1763871800000 } from './db/migrations/1763871800000-blocks.js';
import { Reports1763871900000 } from './db/migrations/1763871900000-reports.js';
import { PasswordResets1763872000000 } from './db/migrations/1763872000000-password-resets.js';
import { AccountClosing1763872100000 } from './db/migrations/1763872100000-account-closing.js';
import { MessageSeqGiven1763872150000 } from './db/migrations/1763872150000-message-seq-given.js';
import { UnusedIndexes1763872200000 } from './db/migrations/1763872200000-unused-indexes.js';
import { MessageSeqPerMember1763872300000 } from './db/migrations/1763872300000-message-seq-per-member.js';
import { ReportOnce1763872410000 } from './db/migrations/1763872410000-report-once.js';
import { ShowPresence1763872450000 } from './db/migrations/1763872450000-show-presence.js';
import { Instance1763872500000 } from './db/migrations/1763872500000-instance.js';
import { InboxVersions1763872600000 } from './db/migrations/1763872600000-inbox-versions.js';
import { Alerts1763872800000 } from './db/migrations/1763872800000-alerts.js';
import { Push1763872900000 } from './db/migrations/1763872900000-push.js';
import { LinkJoins1765000000000 } from './db/migrations/1765000000000-link-joins.js';
import { PayoutAccounts1765100000000 } from './db/migrations/1765100000000-payout-accounts.js';
import { HeldLots1765300000000 } from './db/migrations/1765300000000-held-lots.js';
import { Disputes1765300100000 } from './db/migrations/1765300100000-disputes.js';
import { LotIdentity1765300200000 } from './db/migrations/1765300200000-lot-identity.js';
import { PayoutFailures1765300300000 } from './db/migrations/1765300300000-payout-failures.js';
import { PushSessions1765400100000 } from './db/migrations/1765400100000-push-sessions.js';
import { AgeGate1765400300000 } from './db/migrations/1765400300000-age-gate.js';
import { GiftsPaused1765400400000 } from './db/migrations/1765400400000-gifts-paused.js';

/** Every table's entity. */
export const entities = [
  UserEntity,
  InviteEntity,
  LinkJoinEntity,
  LedgerAccountEntity,
  LedgerTransferEntity,
  LedgerEntryEntity,
  IdempotencyRecordEntity,
  CatalogProductEntity,
  CatalogMetaEntity,
  LinkEntity,
  LinkVisitorEntity,
  LinkResponseEntity,
  ConversationEntity,
  AnonymousPseudonymEntity,
  MessageEntity,
  NotificationEntity,
  CounterEntity,
  WishlistEntity,
  WishlistItemEntity,
  SessionEntity,
  LinkViewDayEntity,
  AnalyticsEventEntity,
  AddressEntity,
  OrderEntity,
  SubscriptionEntity,
  SandboxObjectEntity,
  PaymentIntentEntity,
  JobLeaseEntity,
  StripeEventEntity,
  PasswordResetEntity,
  ReportEntity,
  BlockEntity,
  AlertEntity,
  AlertPreferenceEntity,
  PushSubscriptionEntity,
  PayoutAccountEntity,
  HeldLotEntity,
  DisputeEntity,
  GiftReceiptEntity,
];

/** Every migration, first to last. */
export const migrations = [
  Initial1763870000000,
  Ledger1763870100000,
  Catalog1763870200000,
  Links1763870300000,
  Wishlists1763870400000,
  MessageSeq1763870500000,
  ConversationIdentity1763870600000,
  Sessions1763870700000,
  ViewDedupe1763870800000,
  Analytics1763870900000,
  Orders1763871000000,
  GroupGifts1763871100000,
  WishlistArchive1763871200000,
  InviteRefill1763871300000,
  Subscriptions1763871500000,
  StripeEvents1763871600000,
  PaymentIntents1763871700000,
  Blocks1763871800000,
  Reports1763871900000,
  PasswordResets1763872000000,
  AccountClosing1763872100000,
  MessageSeqGiven1763872150000,
  UnusedIndexes1763872200000,
  MessageSeqPerMember1763872300000,
  ReportOnce1763872410000,
  ShowPresence1763872450000,
  Instance1763872500000,
  InboxVersions1763872600000,
  Alerts1763872800000,
  Push1763872900000,
  LinkJoins1765000000000,
  PayoutAccounts1765100000000,
  HeldLots1765300000000,
  Disputes1765300100000,
  LotIdentity1765300200000,
  PayoutFailures1765300300000,
  PushSessions1765400100000,
  AgeGate1765400300000,
  GiftsPaused1765400400000,
];

/** What the server, the commands and the tests open the database with (db/index.ts). */
export const schema: Schema = { entities, migrations };
