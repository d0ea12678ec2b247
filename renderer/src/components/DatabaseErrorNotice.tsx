import { useAtomValue, useSetAtom } from 'jotai';
import { databaseErrorAtom, databaseErrorNoticeAtom, dismissDatabaseErrorAtom } from '../state/session';
import { MessagePopup } from './MessagePopup';

/** The session's database error ('Could not save images locally…'), shown once, dismissible. */
export function DatabaseErrorNotice() {
  const error = useAtomValue(databaseErrorAtom);
  const open = useAtomValue(databaseErrorNoticeAtom);
  const dismiss = useSetAtom(dismissDatabaseErrorAtom);
  if (!open || !error) return null;
  return <MessagePopup message={error} onClose={dismiss} />;
}
