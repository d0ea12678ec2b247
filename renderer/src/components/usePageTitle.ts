import { useEffect } from 'react';

/** Sets the browser tab title for the current page. */
export function usePageTitle(title: string | null) {
  useEffect(() => {
    document.title = title ? `${title} · Giftlink` : 'Giftlink';
  }, [title]);
}
