import { useSearchParams } from 'react-router-dom';
import { QUICK_AMOUNTS } from '../../../../api/contract/limits';
import type { LinkView } from '../../api/types';
import { formatAmount } from '../../format';

/** The amount a visitor picked, kept in the page's query so that logging in or joining comes back to it. */
export const AMOUNT_PARAM = 'amount';

/** The picked amount in the query, when it is one of the quick amounts. */
export function pickedAmount(params: URLSearchParams): number | undefined {
  const value = Number(params.get(AMOUNT_PARAM));
  return (QUICK_AMOUNTS as readonly number[]).includes(value) ? value : undefined;
}

/**
 * A visitor on a receive link picks an amount before logging in or joining: the give step they
 * come back to has it chosen.
 */
export function VisitorAmount({ link }: { link: LinkView }) {
  const [params, setParams] = useSearchParams();
  const picked = pickedAmount(params);
  const left = link.progress?.left ?? null;
  return (
    <section className="card link-actions" aria-label="Choose an amount">
      <fieldset className="give-amounts">
        <legend>Choose an amount</legend>
        <div className="give-amounts__quick">
          {QUICK_AMOUNTS.map((value) => (
            <button
              key={value}
              type="button"
              className={picked === value ? 'btn give-amounts__button is-selected' : 'btn give-amounts__button'}
              aria-pressed={picked === value}
              disabled={left !== null && value > left}
              onClick={() => setParams({ [AMOUNT_PARAM]: String(value) }, { replace: true })}
            >
              {formatAmount(value)}
            </button>
          ))}
        </div>
      </fieldset>
    </section>
  );
}
