import { useId, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { TEST_CARDS, formatCardNumber, formatCvc, formatExpiry, validateCard, type CardErrors, type CardInput } from './card';
import './CardForm.css';

interface SandboxCardFormProps {
  /** The submit button's text, e.g. 'Pay $1.99 and subscribe' or 'Give $5.00'. */
  submitLabel: string;
  busy: boolean;
  onPay: (card: CardInput) => void;
  /** Shown between the fields and the button (the give step's 'Save this card'). */
  children?: ReactNode;
}

/**
 * The sandbox provider's card form (PAYMENTS=sandbox): test mode only, Stripe's test numbers.
 * The number goes to the sandbox confirm call and nowhere else; nothing is stored here.
 */
export function SandboxCardForm({ submitLabel, busy, onPay, children }: SandboxCardFormProps) {
  const [card, setCard] = useState<CardInput>({ number: '', expiry: '', cvc: '' });
  const [errors, setErrors] = useState<CardErrors>({});
  const numberRef = useRef<HTMLInputElement>(null);
  const id = useId();

  const change = (field: keyof CardInput, value: string) => {
    setCard((c) => ({ ...c, [field]: value }));
    if (errors[field]) setErrors((e) => ({ ...e, [field]: undefined }));
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const found = validateCard(card);
    setErrors(found);
    const first = (['number', 'expiry', 'cvc'] as const).find((f) => found[f]);
    if (first) {
      document.getElementById(`${id}-${first}`)?.focus();
      return;
    }
    onPay(card);
  };

  const field = (name: keyof CardInput) => ({
    id: `${id}-${name}`,
    'aria-invalid': errors[name] ? true : undefined,
    'aria-describedby': errors[name] ? `${id}-${name}-error` : undefined,
    disabled: busy,
  });

  return (
    <form className="card-form" onSubmit={submit} noValidate aria-busy={busy}>
      <div className="testmode" role="note" aria-labelledby={`${id}-testmode`}>
        <p id={`${id}-testmode`} className="testmode__title">
          <span className="testmode__tag">TEST MODE</span> No real card is charged.
        </p>
        <p className="small">Use one of Stripe's test numbers, any future date and any 3 digits:</p>
        <ul className="testmode__cards">
          {TEST_CARDS.map((t) => (
            <li key={t.number}>
              <button
                type="button"
                className="testmode__card"
                disabled={busy}
                onClick={() => {
                  change('number', t.number);
                  numberRef.current?.focus();
                }}
                aria-label={`Use test card ${t.number}, ${t.outcome}`}
              >
                {/* The space (no width in the flex row) keeps the number and the outcome apart in the seen text, as in the name. */}
                <code>{t.number}</code> <span className="muted small">{t.outcome}</span>
              </button>
            </li>
          ))}
        </ul>
      </div>

      <div className="field">
        <label htmlFor={`${id}-number`}>Card number</label>
        <input
          {...field('number')}
          ref={numberRef}
          className="input card-form__number"
          inputMode="numeric"
          autoComplete="cc-number"
          placeholder="1234 1234 1234 1234"
          value={card.number}
          onChange={(e) => change('number', formatCardNumber(e.target.value))}
        />
        {errors.number ? (
          <p id={`${id}-number-error`} className="field-error">
            {errors.number}
          </p>
        ) : null}
      </div>
      <div className="card-form__row">
        <div className="field">
          <label htmlFor={`${id}-expiry`}>Expiry (MM/YY)</label>
          <input
            {...field('expiry')}
            className="input"
            inputMode="numeric"
            autoComplete="cc-exp"
            placeholder="MM / YY"
            value={card.expiry}
            onChange={(e) => change('expiry', formatExpiry(e.target.value, card.expiry))}
          />
          {errors.expiry ? (
            <p id={`${id}-expiry-error`} className="field-error">
              {errors.expiry}
            </p>
          ) : null}
        </div>
        <div className="field">
          <label htmlFor={`${id}-cvc`}>CVC</label>
          <input
            {...field('cvc')}
            className="input"
            inputMode="numeric"
            autoComplete="cc-csc"
            placeholder="123"
            value={card.cvc}
            onChange={(e) => change('cvc', formatCvc(e.target.value))}
          />
          {errors.cvc ? (
            <p id={`${id}-cvc-error`} className="field-error">
              {errors.cvc}
            </p>
          ) : null}
        </div>
      </div>
      {children}
      <button type="submit" className="btn btn--gradient btn--block" disabled={busy}>
        {busy ? 'Processing…' : submitLabel}
      </button>
    </form>
  );
}
