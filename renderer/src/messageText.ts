import { PREVIEW_LENGTH } from '../../api/contract/limits';
import type { MessageView } from './api/types';

export { PREVIEW_LENGTH };

/**
 * The inbox preview of a message: whitespace (line breaks too) collapsed, and past `max`
 * characters cut at the last word boundary within them, with an ellipsis. A single word longer
 * than `max` is cut at `max`.
 */
export function truncatePreview(text: string, max = PREVIEW_LENGTH): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  if (flat.length <= max) return flat;
  // The cut falls on a boundary when the character after it is a space.
  let cut = flat.slice(0, max);
  if (flat[max] !== ' ') {
    const space = cut.lastIndexOf(' ');
    if (space > 0) cut = cut.slice(0, space);
  }
  return `${cut.replace(/[\s.,;:!?-]+$/, '')}…`;
}

/**
 * The inbox line of a conversation's last message. The reader's own text message reads
 * 'You: <text>'; a gift message already speaks to its reader (the server writes 'You gave $5.00'
 * for its giver, 'You received a gift of $5.00!' for its recipient), so it is never prefixed.
 */
export function inboxPreview(last: Pick<MessageView, 'text' | 'mine' | 'messageType'> | null): string {
  if (!last) return 'No messages yet';
  const text = truncatePreview(last.text);
  return last.mine && last.messageType !== 'gift' ? `You: ${text}` : text;
}

/**
 * Merges messages into a thread: one entry per `_id`, in `seq` order (the server's commit
 * order). Returns `current` itself when nothing is new, so React can skip a render.
 */
export function mergeMessages(current: readonly MessageView[], incoming: readonly MessageView[]): MessageView[] {
  const known = new Set(current.map((m) => m._id));
  const fresh = incoming.filter((m) => !known.has(m._id));
  if (fresh.length === 0) return current as MessageView[];
  const seen = new Set<string>();
  return [...current, ...fresh].filter((m) => (seen.has(m._id) ? false : (seen.add(m._id), true))).sort((a, b) => a.seq - b.seq);
}
