import type { ReactNode } from 'react';
import { Dialog } from './Dialog';

interface MessagePopupProps {
  message: ReactNode;
  title?: ReactNode;
  onClose: () => void;
}

export function MessagePopup({ message, title, onClose }: MessagePopupProps) {
  return (
    <Dialog message={message} title={title} onDismiss={onClose}>
      <button type="button" className="btn btn--primary" onClick={onClose} data-autofocus>
        Close
      </button>
    </Dialog>
  );
}
