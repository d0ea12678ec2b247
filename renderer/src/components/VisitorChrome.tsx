import type { ReactNode, Ref } from 'react';
import type { Anchor } from './Anchor.js';
import { GiftIcon } from './Icons.js';
import { LogoMark, Wordmark } from './Logo.js';

/** The top bar's frame and home link; `children` are its actions. Pure: the server paints it too. */
export function TopBarFrame({ Link, barRef, children }: { Link: Anchor; barRef?: Ref<HTMLElement>; children: ReactNode }) {
  return (
    <header className="topbar" ref={barRef}>
      <div className="topbar__inner">
        <Link to="/" className="topbar__home" aria-label="Giftlink home">
          <LogoMark size={34} />
          <Wordmark />
        </Link>
        {children}
      </div>
    </header>
  );
}

/** A signed-out visitor's Login and Register buttons in the top bar. */
export function VisitorActions({ Link, LoginLink = Link }: { Link: Anchor; LoginLink?: Anchor }) {
  return (
    <div className="topbar__actions">
      <LoginLink className="btn btn--sm btn--ghost" to="/login">
        Login
      </LoginLink>
      <Link className="btn btn--sm btn--primary" to="/register">
        Register
      </Link>
    </div>
  );
}

/** The visitor banner; `joinVia`: the username whose shared page 'Join Giftlink' joins through. */
export function VisitorBannerView({ Link, joinVia }: { Link: Anchor; joinVia?: string }) {
  return (
    // A landmark of its own (axe 'region'): it sits between the top bar and <main>.
    <aside className={joinVia ? 'visitor-banner visitor-banner--join' : 'visitor-banner'} aria-label="For visitors">
      <span className="visitor-banner__message">
        <GiftIcon size={18} />
        <p>Log in or register to gain full access to all features</p>
      </span>
      {joinVia ? (
        <Link className="btn btn--sm btn--primary visitor-banner__join" to={`/register?via=${encodeURIComponent(joinVia)}`}>
          Join Giftlink
        </Link>
      ) : null}
    </aside>
  );
}
