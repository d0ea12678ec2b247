import type { EntityManager } from 'typeorm';
import { GIFT_REVERSED } from '../../contract/texts.js';
import { ConversationEntity } from '../conversations/entity.js';
import { recordThreadNotice } from '../conversations/gift-note.js';
import type { Database } from '../db/index.js';
import { disputeLost, disputeWon, takeBackDispute, type DisputeInput, type TakenBack } from '../money/disputes.js';
import { settleReceipt, standingReceipts } from '../money/gift-receipts-store.js';
import type { RealtimeEvent } from '../realtime/publisher.js';

/** A dispute as a provider's event tells it: opened, or closed won or lost. */
export interface DisputeEvent extends DisputeInput {
  outcome: 'created' | 'won' | 'lost';
}

/**
 * Applies a dispute event in the caller's transaction (the webhook's, which records the event's
 * id in it, so it is applied once): takes the money back (money/disputes.ts), and in the thread of
 * each gift taken back from its recipient says so, as a message from the giver's identity there
 * that names no one. Answers whether anything changed and the messages to publish after the commit.
 */
export async function applyDispute(em: EntityManager, event: DisputeEvent): Promise<{ applied: boolean; events: RealtimeEvent[] }> {
  if (event.outcome === 'won') return { applied: await disputeWon(em, event.disputeId), events: [] };
  // A dispute closed lost that we never saw opened is taken back now, then closed.
  const taken = await takeBackDispute(em, event);
  const events = taken ? await noticeReversals(em, taken) : [];
  const closed = event.outcome === 'lost' && (await disputeLost(em, event.disputeId));
  return { applied: taken !== null || closed, events };
}

async function noticeReversals(em: EntityManager, taken: TakenBack): Promise<RealtimeEvent[]> {
  const events: RealtimeEvent[] = [];
  for (const holder of taken.fromHeld)
    for (const receipt of await standingReceipts(em, holder.sourceTransferIds, holder.userId)) {
      if (!(await settleReceipt(em, receipt.transferId, 'reversed'))) continue;
      const conversation = await em.findOneByOrFail(ConversationEntity, { id: receipt.conversationId });
      events.push((await recordThreadNotice(em, conversation, receipt.giverId, GIFT_REVERSED)).event);
    }
  return events;
}

/** The webhook's settler of a dispute (`db` runs in the event's transaction); the webhook publishes the events after its commit. */
export function settleDispute(db: Database, event: DisputeEvent): Promise<{ applied: boolean; events: RealtimeEvent[] }> {
  return db.transaction((em) => applyDispute(em, event));
}
