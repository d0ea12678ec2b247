import { useState } from 'react';
import { ShareIcon } from '../Icons';
import { ShareModal, type ShareSubject } from './ShareModal';

/** A 'Share' button that opens 'How to Share the Link' (open at once with `initiallyOpen`). */
export function ShareButton({
  subject,
  label = 'Share',
  className = 'btn btn--primary',
  initiallyOpen = false,
}: {
  subject: ShareSubject;
  label?: string;
  className?: string;
  initiallyOpen?: boolean;
}) {
  const [open, setOpen] = useState(initiallyOpen);
  return (
    <>
      <button type="button" className={className} onClick={() => setOpen(true)}>
        <ShareIcon size={18} />
        {label}
      </button>
      {open ? <ShareModal subject={subject} onClose={() => setOpen(false)} /> : null}
    </>
  );
}
