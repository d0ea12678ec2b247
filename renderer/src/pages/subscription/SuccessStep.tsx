import { useEffect, useRef, useState } from 'react';
import { Link } from 'react-router-dom';
import type { SubscriptionInfo } from '../../../../api/contract/subscriptions';
import { VerifiedIcon } from '../../components/Icons';
import { formatDay } from './dates';

function prefersReducedMotion(): boolean {
  return typeof window.matchMedia === 'function' && window.matchMedia('(prefers-reduced-motion: reduce)').matches;
}

/** A short burst of confetti on our own canvas; none at all when the user asks for less motion. */
function Confetti() {
  const ref = useRef<HTMLCanvasElement>(null);
  useEffect(() => {
    const canvas = ref.current;
    if (!canvas) return;
    let cancelled = false;
    let reset: (() => void) | undefined;
    void import('canvas-confetti').then(({ default: confetti }) => {
      if (cancelled) return;
      // No worker: the Content-Security-Policy allows no blob: workers.
      const fire = confetti.create(canvas, { resize: true, useWorker: false, disableForReducedMotion: true });
      reset = () => fire.reset();
      const colors = ['#6a4ce0', '#a056d8', '#ff6b8f', '#3b82f6', '#ffd166'];
      void fire({ particleCount: 120, spread: 80, origin: { y: 0.35 }, colors });
      window.setTimeout(() => {
        if (!cancelled) void fire({ particleCount: 80, spread: 120, origin: { y: 0.3 }, colors, scalar: 0.9 });
      }, 350);
    });
    return () => {
      cancelled = true;
      reset?.();
    };
  }, []);
  return <canvas ref={ref} className="sub-confetti" aria-hidden="true" data-testid="confetti" />;
}

/** Step 3: 'You are now subscribed!', when it renews, and the community invite. */
export function SuccessStep({ info, onDone }: { info: SubscriptionInfo | undefined; onDone: () => void }) {
  const [motion] = useState(() => !prefersReducedMotion());
  const headingRef = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    headingRef.current?.focus();
  }, []);
  return (
    <section className="card sub-success" aria-labelledby="sub-success-title">
      {motion ? <Confetti /> : null}
      <span className="sub-success__badge" aria-hidden="true">
        <VerifiedIcon size={56} />
      </span>
      <h2 id="sub-success-title" ref={headingRef} tabIndex={-1}>
        You are now subscribed!
      </h2>
      <p className="muted">
        Your verified badge is on.
        {info?.subscriptionEndDate ? ` Your subscription renews on ${formatDay(info.subscriptionEndDate)}.` : null}
      </p>
      {info?.communityInviteUrl ? (
        <a className="btn btn--soft" href={info.communityInviteUrl} target="_blank" rel="noopener noreferrer">
          Join the private community
        </a>
      ) : null}
      <div className="sub-success__actions">
        <button type="button" className="btn btn--primary" onClick={onDone}>
          Manage subscription
        </button>
        <Link className="btn" to="/">
          Back to home
        </Link>
      </div>
    </section>
  );
}
