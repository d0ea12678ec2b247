/**
 * Download my data: everything the user's own answers show them, in one file, through
 * the same presenters those answers use, so the rules are the same ones: their own private fields,
 * the other party of each conversation as they see it ('Anonymous' where the giver is hidden), only
 * the messages they sent, and money history with givers still anonymous where they were.
 */
import type { AccountExport, ExportedConversation } from '../../contract/account.js';
import { KEPT_AFTER_CLOSING } from '../../contract/texts.js';
export { exportFileName } from '../../contract/texts.js';
import { ConversationEntity, MessageEntity } from '../conversations/entity.js';
import { presentMessage } from '../conversations/presenter.js';
import { findConversation } from '../conversations/service.js';
import type { Deps } from '../deps.js';
import { InviteEntity } from '../invites/entity.js';
import { presentInvite } from '../invites/presenter.js';
import { LinkEntity } from '../links/entity.js';
import { presentLink } from '../links/presenter.js';
import { metricsFor } from '../links/service.js';
import { presentNotification } from '../notifications/presenter.js';
import { listNotifications } from '../notifications/service.js';
import { listOrders } from '../orders/service.js';
import type { User } from '../users/entity.js';
import { presentPrivateUser } from '../users/presenter.js';
import { moneyHistory } from '../wallet/history.js';
import type { MoneyHistoryEntry } from '../../contract/wallet.js';
import { getWishlist } from '../wishlists/service.js';
import { presentPayouts } from '../payouts/presenter.js';
import { payoutAccountOf } from '../payouts/service.js';

const HISTORY_PAGE = 500;

async function conversationsOf(deps: Deps, user: User): Promise<ExportedConversation[]> {
  const conversations = await deps.db.manager.find(ConversationEntity, {
    where: [{ initiatorId: user.id }, { responderId: user.id }],
    order: { lastMessageAt: 'DESC' },
  });
  const out: ExportedConversation[] = [];
  for (const c of conversations) {
    const sent = await deps.db.manager.find(MessageEntity, { where: { conversationId: c.id, senderId: user.id }, order: { seq: 'ASC' } });
    out.push({
      conversation: await findConversation(deps.db, user.id, c.id),
      messagesYouSent: sent.map((m) => presentMessage(c, user.id, m)),
    });
  }
  return out;
}

async function historyOf(deps: Deps, userId: string): Promise<MoneyHistoryEntry[]> {
  const entries: MoneyHistoryEntry[] = [];
  let before: string | undefined;
  do {
    const page = await moneyHistory(deps.db.manager, userId, { limit: HISTORY_PAGE, before });
    entries.push(...page.entries);
    before = page.nextCursor ?? undefined;
  } while (before);
  return entries;
}

export async function exportAccount(deps: Deps, user: User): Promise<AccountExport> {
  const now = deps.clock();
  const links = await deps.db.manager.find(LinkEntity, { where: { creatorId: user.id }, order: { createdAt: 'DESC' } });
  const invites = await deps.db.manager.find(InviteEntity, { where: { ownerId: user.id }, order: { createdAt: 'ASC' } });
  return {
    format: 'giftlink-data-export',
    version: 1,
    exportedAt: now.toISOString(),
    profile: presentPrivateUser(user, now),
    birthYear: user.birthYear,
    links: await Promise.all(links.map(async (l) => presentLink(l, user, await metricsFor(deps.db, l, user), now))),
    wishlist: await getWishlist(deps.db, user.username, user),
    conversations: await conversationsOf(deps, user),
    notifications: (await listNotifications(deps.db, user.id)).map(presentNotification),
    invites: invites.map((i) => presentInvite(deps.config, i)),
    orders: await listOrders(deps.db, user.id),
    moneyHistory: await historyOf(deps, user.id),
    payouts: presentPayouts(await payoutAccountOf(deps.db, user.id)),
    keptAfterClosing: KEPT_AFTER_CLOSING.map((kept) => ({ ...kept })),
  };
}
