import { useState } from 'react';
import { BLOCKS_ERROR, NO_BLOCKS, UNBLOCK_FAILED, blockedAnonymous } from '../../../../api/contract/texts';
import { useBlocksQuery, useUnblock, type BlockView } from '../../api/blocks';
import { errorMessage } from '../../api/client';
import { formatDate } from '../../format';
import { GiftIcon } from '../../components/Icons';
import { Spinner } from '../../components/Spinner';
import './BlockedSection.css';

/** How a block is listed: an anonymous giver by the conversation's date only, else by name. */
export function blockLabel(block: BlockView): string {
  return block.anonymous ? blockedAnonymous(formatDate(block.conversationStartedAt)) : (block.displayName ?? '');
}

/**
 * Settings → Blocked people: everyone the user blocked from a conversation. An anonymous
 * giver stays anonymous here ('Anonymous giver (conversation of {date})'). Unblock lets them reach
 * the user again.
 */
export function BlockedSection() {
  const blocks = useBlocksQuery();
  const unblock = useUnblock();
  const [ending, setEnding] = useState<string | null>(null);

  return (
    <section className="card blocked" aria-labelledby="settings-blocked">
      <h2 id="settings-blocked" className="settings__section-title blocked__title">
        Blocked people
      </h2>
      {blocks.isPending ? (
        <Spinner label="Loading blocked people" />
      ) : blocks.isError ? (
        <p className="field-error" role="alert">
          {BLOCKS_ERROR}
        </p>
      ) : blocks.data.length === 0 ? (
        <p className="field-hint">{NO_BLOCKS}</p>
      ) : (
        <ul className="blocked__list">
          {blocks.data.map((block) => (
            <li key={block._id} className="blocked__item">
              {block.anonymous ? (
                <span className="blocked__icon" aria-hidden="true">
                  <GiftIcon size={18} />
                </span>
              ) : null}
              <span className="blocked__info">
                <span className="blocked__name">{blockLabel(block)}</span>
                {block.username ? <span className="blocked__meta">@{block.username}</span> : null}
              </span>
              <button
                type="button"
                className="btn btn--sm btn--soft blocked__unblock"
                disabled={unblock.isPending}
                aria-label={`Unblock ${blockLabel(block)}`}
                onClick={() => {
                  setEnding(block._id);
                  unblock.mutate(block._id, { onSettled: () => setEnding(null) });
                }}
              >
                {ending === block._id ? <Spinner size={16} label="Unblocking" /> : null}
                Unblock
              </button>
            </li>
          ))}
        </ul>
      )}
      {unblock.error ? (
        <p className="field-error" role="alert">
          {errorMessage(unblock.error, UNBLOCK_FAILED)}
        </p>
      ) : null}
    </section>
  );
}
