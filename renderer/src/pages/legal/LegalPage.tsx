import { useEffect } from 'react';
import { useLocation } from 'react-router-dom';
import { legalDoc, type LegalKind } from '../../../../api/contract/legal';
import { API_BASE_URL } from '../../api/client';
import { LegalView } from './LegalView';

/** /terms and /privacy, open to everyone. */
export function LegalPage() {
  const { pathname } = useLocation();
  const kind: LegalKind = pathname.startsWith('/privacy') ? 'privacy' : 'terms';
  // The address to write to is at the product's own host: the API's, in the desktop app.
  const host = API_BASE_URL ? new URL(API_BASE_URL).hostname : window.location.hostname;
  const doc = legalDoc(kind, host);
  useEffect(() => {
    document.title = `${doc.title} · Giftlink`;
  }, [doc.title]);
  return <LegalView doc={doc} />;
}
