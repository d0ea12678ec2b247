import type { ReactNode } from 'react';
import type { Anchor } from '../../components/Anchor.js';
import { ClockIcon, CoinsIcon, LockIcon, PackageIcon } from '../../components/Icons.js';

export interface LinkHeroViewProps {
  avatar: ReactNode;
  /** The creator's name line, with its badge when they subscribe. */
  name: ReactNode;
  /** The line under the name: '@user · 2 hours ago' or '2 hours ago'. */
  when: string;
  /** 'You are' or '@user is'. */
  who: string;
  give: boolean;
  kind: 'item' | 'currency';
  photo?: string | null;
  what: string;
  /** '$5.00 with shipping' for an item. */
  shipping?: string | null;
  /** '3 of 5 left' for a multi-use gift link. */
  left?: string | null;
  progress?: ReactNode;
}

/** Who made the link, when, and what it gives or asks for. Pure: the server paints it too. */
export function LinkHeroView({ avatar, name, when, who, give, kind, photo, what, shipping, left, progress }: LinkHeroViewProps) {
  const verb = give ? 'giving' : 'requesting';
  return (
    <article className="card link-hero" aria-labelledby="link-title">
      <div className="link-hero__creator">
        {avatar}
        <div>
          <p className="link-hero__name">{name}</p>
          <p className="muted small">{when}</p>
        </div>
      </div>

      <div className={give ? 'link-hero__gift link-hero__gift--give' : 'link-hero__gift'}>
        <span className="link-hero__media" aria-hidden="true">
          {kind === 'item' && photo ? (
            <img src={photo} alt="" width={96} height={96} />
          ) : kind === 'item' ? (
            <PackageIcon size={36} />
          ) : (
            <CoinsIcon size={36} />
          )}
        </span>
        <div className="link-hero__text">
          <p className="link-hero__eyebrow">{give ? 'Gift link' : 'Gift request'}</p>
          {/* The title shows 3 lines at most (LinkPage.css); the whole of it is its tooltip and its name. */}
          <h1 id="link-title" className="link-hero__title" title={`${who} ${verb} ${what}`}>
            {who} {verb} <span className="link-hero__what">{what}</span>
          </h1>
          {shipping ? <p className="muted small">{shipping}</p> : null}
          {left ? <p className="link-hero__left">{left}</p> : null}
        </div>
      </div>
      {progress}
    </article>
  );
}

/** A signed-out visitor's box under the link: log in or register to use it. */
export function LinkVisitorBox({ Link, give }: { Link: Anchor; give: boolean }) {
  return (
    <section className="card link-actions link-actions--visitor" aria-label="Log in to use this link">
      <LockIcon size={22} />
      <p>Log in or register to {give ? 'accept this gift' : 'give to this link'}.</p>
      <div className="link-actions__row">
        <Link className="btn btn--primary" to="/login">
          Login
        </Link>
        <Link className="btn" to="/register">
          Register
        </Link>
      </div>
    </section>
  );
}

/** Under a paused creator's link, for everyone but them: the link stays up, with nothing to give or accept. */
export function LinkPausedBox({ text }: { text: string }) {
  return (
    <section className="card link-actions link-actions--paused" aria-label="Not taking gifts">
      <ClockIcon size={22} />
      <p>{text}</p>
    </section>
  );
}
