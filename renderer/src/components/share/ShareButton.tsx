import { lazy, Suspense, useState } from 'react';
import { ShareIcon } from '../Icons';
import type { ShareSubject } from './ShareModal';

/** The share modal loads when first opened: link and wishlist pages open fast for visitors, who never share. */
const ShareModal = lazy(async () => ({ default: (await import('./ShareModal')).ShareModal }));

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
      {open ? (
        <Suspense fallback={null}>
          <ShareModal subject={subject} onClose={() => setOpen(false)} />
        </Suspense>
      ) : null}
    </>
  );
}
