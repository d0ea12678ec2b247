import { useId, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { QUICK_AMOUNTS } from '../../../../api/contract/limits';
import { MoneyInput } from '../../components/MoneyInput';
import { formatAmount, formatDollars } from '../../format';
import { AMOUNT_PARAM, formatAmountParam, parseAmountParam } from './amountParam';

/** What a giver chose on a receive link: a quick amount, or what they typed as 'Other amount'. */
export interface AmountChoice {
  quick: number | null;
  typed: string;
}

const isQuick = (amount: number) => (QUICK_AMOUNTS as readonly number[]).includes(amount);

function choiceOf(param: string | null): AmountChoice {
  const amount = parseAmountParam(param);
  if (amount === null) return { quick: null, typed: '' };
  return isQuick(amount) ? { quick: amount, typed: '' } : { quick: null, typed: formatAmountParam(amount) };
}

/**
 * The amount chosen on a link page, kept in `?amount=` while it is a valid one, so that a visitor
 * who logs in or joins (they come back to this address) finds it chosen.
 */
export function useAmountChoice(): [AmountChoice, (choice: AmountChoice) => void] {
  const [params, setParams] = useSearchParams();
  const [choice, setChoice] = useState(() => choiceOf(params.get(AMOUNT_PARAM)));
  function change(next: AmountChoice) {
    setChoice(next);
    const amount = next.quick ?? parseAmountParam(next.typed);
    setParams(
      (current) => {
        const query = new URLSearchParams(current);
        if (amount === null) query.delete(AMOUNT_PARAM);
        else query.set(AMOUNT_PARAM, formatAmountParam(amount));
        return query;
      },
      { replace: true },
    );
  }
  return [choice, change];
}

/**
 * Quick amounts and 'Other amount', for a visitor and a giver alike. A group gift takes any
 * amount up to what is left: quick amounts above it are disabled.
 */
export function AmountPicker({
  choice,
  onChange,
  left,
}: {
  choice: AmountChoice;
  onChange: (choice: AmountChoice) => void;
  left: number | null;
}) {
  const typedId = useId();
  return (
    <fieldset className="give-amounts">
      <legend>Choose an amount</legend>
      {left !== null ? <p className="give-amounts__left">{formatDollars(left)} left to give</p> : null}
      <div className="give-amounts__quick">
        {QUICK_AMOUNTS.map((value) => (
          <button
            key={value}
            type="button"
            className={choice.quick === value ? 'btn give-amounts__button is-selected' : 'btn give-amounts__button'}
            aria-pressed={choice.quick === value}
            disabled={left !== null && value > left}
            onClick={() => onChange({ quick: value, typed: '' })}
          >
            {formatAmount(value)}
          </button>
        ))}
      </div>
      <div className="field">
        <label htmlFor={typedId}>Other amount</label>
        <MoneyInput id={typedId} value={choice.typed} onChange={(event) => onChange({ quick: null, typed: event.target.value })} />
      </div>
    </fieldset>
  );
}
