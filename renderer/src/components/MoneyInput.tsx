import { forwardRef, type InputHTMLAttributes } from 'react';

type Props = Omit<InputHTMLAttributes<HTMLInputElement>, 'type' | 'inputMode' | 'step' | 'className'>;

/** A dollar amount field: a `$` sign and a number input in cents steps (min 1 unless told). */
// forwardRef: preact/compat hands a plain `ref` prop to the component, not to the input, on some versions.
export const MoneyInput = forwardRef<HTMLInputElement, Props>(function MoneyInput({ min = '1', placeholder = '0.00', ...input }, ref) {
  return (
    <div className="money-input">
      <span className="money-input__sign" aria-hidden="true">
        $
      </span>
      <input
        ref={ref}
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
});
