import type { MessageView } from '../../api/types';
import { CoinsIcon, GiftIcon, PackageIcon, RefreshIcon } from '../../components/Icons';
import { appLocale } from '../../format';
import type { Outgoing } from './useOutbox';
import { ReportMessageButton } from './ReportDialog';
import { ReturnGiftButton } from './ReturnGiftButton';

export function dayKey(iso: string): string {
  const d = new Date(iso);
  return `${d.getFullYear()}-${d.getMonth()}-${d.getDate()}`;
}

export function dayLabel(iso: string, now = new Date()): string {
  const d = new Date(iso);
  const today = dayKey(now.toISOString());
  const yesterday = new Date(now);
  yesterday.setDate(now.getDate() - 1);
  if (dayKey(iso) === today) return 'Today';
  if (dayKey(iso) === dayKey(yesterday.toISOString())) return 'Yesterday';
  return d.toLocaleDateString(appLocale(), {
    weekday: 'short',
    month: 'short',
    day: 'numeric',
    year: d.getFullYear() === now.getFullYear() ? undefined : 'numeric',
  });
}

function timeLabel(iso: string): string {
  return new Date(iso).toLocaleTimeString(appLocale(), { hour: 'numeric', minute: '2-digit' });
}

/** One message of the thread (a gift as a card), after a day divider when it starts a day. */
export function MessageItem({
  message,
  dayDivider,
  otherLabel,
  returnGiftsIn = null,
}: {
  message: MessageView;
  dayDivider: string | null;
  otherLabel: string;
  /** The thread, when its gifts to the reader can be returned (an anonymous giver's). */
  returnGiftsIn?: string | null;
}) {
  const gift = message.messageType === 'gift' ? message.giftDetails : null;
  const who = message.mine ? 'You' : otherLabel;
  const giftTitle = gift && gift.giftType === 'item' && gift.title ? gift.title : message.text;
  // The text when it says more than the title ("You received a gift: <title>!" does not).
  const giftNote = gift && message.text && !message.text.includes(giftTitle) ? message.text : null;
  return (
    <>
      {dayDivider ? (
        <li className="thread__day" aria-hidden="true">
          <span>{dayDivider}</span>
        </li>
      ) : null}
      <li className={message.mine ? 'msg msg--mine' : 'msg'} data-id={message._id}>
        {gift ? (
          <div className={gift.img ? 'gift-msg gift-msg--photo' : 'gift-msg'}>
            {/* The giver's own gift already reads 'You gave …'. */}
            {message.mine ? null : <span className="visually-hidden">{who}: </span>}
            <div className="gift-msg__media">
              {gift.img ? (
                <img src={gift.img} alt={gift.title ?? 'Gift'} loading="lazy" />
              ) : gift.giftType === 'item' ? (
                <PackageIcon size={28} />
              ) : (
                <CoinsIcon size={28} />
              )}
            </div>
            <div className="gift-msg__body">
              <span className="gift-msg__eyebrow">
                <GiftIcon size={14} />
                Gift · {gift.giftType === 'item' ? 'Item' : 'Currency'}
              </span>
              {/* A currency gift's text says what was given, to its reader: 'You gave $5.00' or 'You received a gift of $5.00!'. */}
              <strong className="gift-msg__title">{giftTitle}</strong>
              {giftNote ? <p className="gift-msg__text">{giftNote}</p> : null}
              {returnGiftsIn && !message.mine && gift.giftType === 'currency' ? (
                <ReturnGiftButton conversationId={returnGiftsIn} messageId={message._id} />
              ) : null}
            </div>
          </div>
        ) : (
          <div className="msg__bubble">
            <span className="visually-hidden">{who}: </span>
            {message.text}
          </div>
        )}
        <time className="msg__meta" dateTime={message.createdAt}>
          {timeLabel(message.createdAt)}
        </time>
        <ReportMessageButton message={message} />
      </li>
    </>
  );
}

/** A message being sent: 'Sending…', 'Not sent' with Retry and Delete, or why it was refused with Delete. */
export function OutgoingItem({ outgoing: o, onRetry, onDiscard }: { outgoing: Outgoing; onRetry: () => void; onDiscard: () => void }) {
  return (
    <li className={o.status === 'failed' ? 'msg msg--mine is-failed' : 'msg msg--mine is-pending'}>
      <div className="msg__bubble">
        <span className="visually-hidden">You: </span>
        {o.text}
      </div>
      {o.status === 'pending' ? (
        <span className="msg__meta">Sending…</span>
      ) : o.refused ? (
        <span className="msg__meta msg__meta--failed" role="alert">
          <span>{o.refused}</span>
          <button type="button" className="msg__action msg__action--quiet" onClick={onDiscard}>
            Delete
          </button>
        </span>
      ) : (
        <span className="msg__meta msg__meta--failed">
          Not sent
          <button type="button" className="msg__action" onClick={onRetry}>
            <RefreshIcon size={14} />
            Retry
          </button>
          <button type="button" className="msg__action msg__action--quiet" onClick={onDiscard}>
            Delete
          </button>
        </span>
      )}
    </li>
  );
}
