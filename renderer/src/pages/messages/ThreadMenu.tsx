import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { BLOCK_CONFIRM, BLOCK_DONE, BLOCK_FAILED, UNBLOCK_FAILED } from '../../../../api/contract/texts';
import { useBlockConversation, useBlocksQuery, useUnblock } from '../../api/blocks';
import { errorMessage } from '../../api/client';
import type { ConversationView } from '../../api/types';
import { ConfirmPopup } from '../../components/ConfirmPopup';
import { MessagePopup } from '../../components/MessagePopup';
import './ThreadMenu.css';
import { ReportItem } from './ReportDialog';

/** Three vertical dots: "more" in a thread's header. */
function MoreIcon({ size = 22 }: { size?: number }) {
  return (
    <svg width={size} height={size} viewBox="0 0 24 24" fill="currentColor" aria-hidden="true" focusable="false">
      <circle cx="12" cy="5" r="1.8" />
      <circle cx="12" cy="12" r="1.8" />
      <circle cx="12" cy="19" r="1.8" />
    </svg>
  );
}

/** One entry of the thread's menu. Picking it closes the menu, then runs `onSelect`. */
export function ThreadMenuItem({ onSelect, danger = false, children }: { onSelect: () => void; danger?: boolean; children: ReactNode }) {
  return (
    <button type="button" role="menuitem" className={`thread-menu__item${danger ? ' thread-menu__item--danger' : ''}`} onClick={onSelect}>
      {children}
    </button>
  );
}

/**
 * Block (or unblock) the other member of this conversation. The server works out who that is; the
 * answer and the list name nobody an anonymous giver could be recognised by.
 */
function BlockItem({ conversation, close }: { conversation: ConversationView; close: () => void }) {
  const blocks = useBlocksQuery();
  const block = useBlockConversation();
  const unblock = useUnblock();
  const [confirming, setConfirming] = useState(false);
  const [notice, setNotice] = useState<string | null>(null);
  const existing = blocks.data?.find((b) => b.conversationId === conversation._id) ?? null;

  return (
    <>
      {existing ? (
        <ThreadMenuItem
          onSelect={() => {
            close();
            unblock.mutate(existing._id, { onError: (err) => setNotice(errorMessage(err, UNBLOCK_FAILED)) });
          }}
        >
          Unblock
        </ThreadMenuItem>
      ) : (
        <ThreadMenuItem
          danger
          onSelect={() => {
            close();
            setConfirming(true);
          }}
        >
          Block…
        </ThreadMenuItem>
      )}
      {confirming ? (
        <ConfirmPopup
          message={BLOCK_CONFIRM}
          primaryLabel="Block"
          secondaryLabel="Cancel"
          onSecondary={() => setConfirming(false)}
          busy={block.isPending}
          onPrimary={() =>
            block.mutate(conversation._id, {
              onSuccess: () => setNotice(BLOCK_DONE),
              onError: (err) => setNotice(errorMessage(err, BLOCK_FAILED)),
              onSettled: () => setConfirming(false),
            })
          }
        />
      ) : null}
      {notice ? <MessagePopup message={notice} onClose={() => setNotice(null)} /> : null}
    </>
  );
}

/**
 * The thread's "more" menu: Block… and whatever `children` adds (each a `ThreadMenuItem`, e.g.
 * Report…). The list stays mounted while closed (hidden), so an item's dialog outlives the menu.
 */
export function ThreadMenu({ conversation, children }: { conversation: ConversationView; children?: ReactNode }) {
  const [open, setOpen] = useState(false);
  const rootRef = useRef<HTMLDivElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const listId = useId();
  const close = () => setOpen(false);

  useEffect(() => {
    if (!open) return;
    const onPointer = (event: PointerEvent) => {
      if (!rootRef.current?.contains(event.target as Node)) setOpen(false);
    };
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      setOpen(false);
      buttonRef.current?.focus();
    };
    document.addEventListener('pointerdown', onPointer);
    document.addEventListener('keydown', onKey);
    rootRef.current?.querySelector<HTMLElement>('[role="menuitem"]')?.focus();
    return () => {
      document.removeEventListener('pointerdown', onPointer);
      document.removeEventListener('keydown', onKey);
    };
  }, [open]);

  return (
    <div className="thread-menu" ref={rootRef}>
      <button
        ref={buttonRef}
        type="button"
        className="btn btn--ghost btn--icon thread-menu__button"
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={listId}
        aria-label="Conversation options"
        onClick={() => setOpen(!open)}
      >
        <MoreIcon />
      </button>
      <div id={listId} role="menu" className="thread-menu__list" hidden={!open} onClick={(e) => e.target !== e.currentTarget && close()}>
        <BlockItem conversation={conversation} close={close} />
        <ReportItem conversation={conversation} />
        {children}
      </div>
    </div>
  );
}
