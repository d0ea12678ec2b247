import { useAtomValue } from 'jotai';
import { AVAILABLE, onHoldUntil, owedAfterDispute, releaseTime } from '../../../api/contract/texts';
import { formatDollars } from '../format';
import { userAtom } from '../state/session';

/** What of the balance can be withdrawn now, and what is on hold until when (card money and gifts wait before they can leave). */
export function BalanceHolds({ className }: { className?: string }) {
  const user = useAtomValue(userAtom);
  if (!user || user.available === undefined) return null;
  return (
    <span className={className}>
      <span>
        {AVAILABLE}: <strong>{formatDollars(user.available)}</strong>
      </span>
      {user.onHold && user.nextReleaseAt ? (
        <span> · {onHoldUntil(formatDollars(user.onHold), releaseTime(user.nextReleaseAt))}</span>
      ) : null}
      {user.owed ? <span role="note"> {owedAfterDispute(formatDollars(user.owed))}</span> : null}
    </span>
  );
}
