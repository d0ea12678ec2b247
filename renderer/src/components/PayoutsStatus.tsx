import type { PayoutsResponse } from '../../../api/contract/payouts';
import {
  PAYOUTS_DETAILS_NEEDED,
  PAYOUTS_NOT_STARTED,
  PAYOUTS_RESTRICTED_STATUS,
  payoutsReady,
  requirementTexts,
} from '../../../api/contract/texts';
import './PayoutsStatus.css';

/** Where the user's payouts stand, in words: what Stripe asks for is listed in plain words. */
export function PayoutsStatus({ payouts }: { payouts: PayoutsResponse }) {
  const asked = requirementTexts(payouts.requirements ?? []);
  return (
    <div className={`payouts-status payouts-status--${payouts.status}`} role="status">
      {payouts.status === 'not_started' ? <p>{PAYOUTS_NOT_STARTED}</p> : null}
      {payouts.status === 'ready' ? <p>{payoutsReady(payouts.bankLast4)}</p> : null}
      {payouts.status === 'restricted' ? <p>{PAYOUTS_RESTRICTED_STATUS}</p> : null}
      {payouts.status === 'details_needed' ? <p>{PAYOUTS_DETAILS_NEEDED}</p> : null}
      {payouts.status !== 'ready' && asked.length ? (
        <ul className="payouts-status__asks">
          {asked.map((text) => (
            <li key={text}>{text}</li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
