import type { InputHTMLAttributes, Ref } from 'react';

type Props = Omit<InputHTMLAttributes<HTMLInputElement>, 'type' | 'inputMode' | 'step' | 'className'> & {
  ref?: Ref<HTMLInputElement>;
};

/** A dollar amount field: a `$` sign and a number input in cents steps (min 1 unless told). */
export function MoneyInput({ min = '1', placeholder = '0.00', ...input }: Props) {
  return (
    <div className="money-input">
      <span className="money-input__sign" aria-hidden="true">
        $
      </span>
      <input
        className="input money-input__field"
        type="number"
        inputMode="decimal"
        step=".01"
        min={min}
        placeholder={placeholder}
        {...input}
      />
    </div>
  );
}
