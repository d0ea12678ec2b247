import { ChatIcon, EyeIcon, UsersIcon, VerifiedIcon } from '../../components/Icons';
import { formatDollars } from '../../format';
import { formatDay, nextChargeDate } from './dates';

/** What the weekly subscription gives (DESIGN: the four benefits). */
export const BENEFITS = [
  { icon: VerifiedIcon, title: 'Verified badge', text: 'A blue check beside your name wherever it appears.' },
  { icon: EyeIcon, title: "Your link's visitor details", text: 'Where your visitors come from, by day and by device.' },
  { icon: UsersIcon, title: "Other users' links", text: 'See the link on anyone’s profile.' },
  { icon: ChatIcon, title: 'The private community', text: 'An invite to the subscribers’ community server.' },
] as const;

const STEPS = ['Plan', 'Payment', 'Done'] as const;

/** 'Step 2 of 3', with the three steps named: where the user is in subscribing. */
export function Stepper({ step }: { step: 1 | 2 | 3 }) {
  return (
    <ol className="sub-steps" aria-label={`Step ${step} of ${STEPS.length}`}>
      {STEPS.map((name, i) => (
        <li
          key={name}
          className={i + 1 === step ? 'sub-steps__step is-current' : i + 1 < step ? 'sub-steps__step is-done' : 'sub-steps__step'}
          aria-current={i + 1 === step ? 'step' : undefined}
        >
          <span className="sub-steps__num" aria-hidden="true">
            {i + 1}
          </span>
          <span>{name}</span>
        </li>
      ))}
    </ol>
  );
}

/** Step 1: the product, its price, what it gives and when it charges. */
export function ProductCard({ price, onContinue, now }: { price: number; onContinue: () => void; now: Date }) {
  return (
    <section className="card sub-product" aria-labelledby="sub-product-title">
      <div className="sub-product__head">
        <span className="sub-product__badge" aria-hidden="true">
          <VerifiedIcon size={36} />
        </span>
        <div>
          <h2 id="sub-product-title">Giftlink Weekly</h2>
          <p className="sub-product__price">
            <strong>{formatDollars(price)}</strong> a week
          </p>
        </div>
      </div>
      <ul className="sub-benefits">
        {BENEFITS.map(({ icon: Icon, title, text }) => (
          <li key={title}>
            <span className="sub-benefits__icon" aria-hidden="true">
              <Icon size={20} />
            </span>
            <span>
              <strong>{title}</strong>
              <span className="muted small sub-benefits__text">{text}</span>
            </span>
          </li>
        ))}
      </ul>
      <p className="sub-product__terms">
        You pay {formatDollars(price)} today. It renews every week until you cancel; the next charge is on{' '}
        <strong>{formatDay(nextChargeDate(now))}</strong>.
      </p>
      <button type="button" className="btn btn--gradient btn--block" onClick={onContinue}>
        Continue to payment
      </button>
    </section>
  );
}
