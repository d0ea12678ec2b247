import type { ReactNode } from 'react';
import { Dialog } from './Dialog';

interface ConfirmPopupProps {
  message: ReactNode;
  primaryLabel: string;
  onPrimary: () => void;
  /** Optional second choice (for example 'No'); Escape and a click outside also call it. */
  secondaryLabel?: string;
  onSecondary?: () => void;
  /** Called on Escape or a click outside when there is no secondary button. */
  onDismiss?: () => void;
  busy?: boolean;
}

export function ConfirmPopup({
  message,
  primaryLabel,
  onPrimary,
  secondaryLabel,
  onSecondary,
  onDismiss,
  busy = false,
}: ConfirmPopupProps) {
  const dismiss = onSecondary ?? onDismiss ?? (() => {});
  return (
    <Dialog message={message} onDismiss={busy ? () => {} : dismiss}>
      {secondaryLabel ? (
        <button type="button" className="btn" onClick={dismiss} disabled={busy}>
          {secondaryLabel}
        </button>
      ) : null}
      <button type="button" className="btn btn--primary" onClick={onPrimary} disabled={busy} data-autofocus>
        {primaryLabel}
      </button>
    </Dialog>
  );
}
