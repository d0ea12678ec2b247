import type { ReactNode } from 'react';
import type { Anchor } from './Anchor.js';
import { LogoMark } from './Logo.js';

interface AuthCardViewProps {
  Link: Anchor;
  title: string;
  tagline?: string;
  children: ReactNode;
  footer?: ReactNode;
}

/** The centred card of login, registration and the invite landing page. Pure: the server paints /login's. */
export function AuthCardView({ Link, title, tagline, children, footer }: AuthCardViewProps) {
  return (
    <div className="auth">
      <section className="auth__card" aria-labelledby="auth-title">
        <Link to="/" className="auth__brand" aria-label="Giftlink home">
          <LogoMark size={48} />
        </Link>
        <h1 id="auth-title" className="auth__title">
          {title}
        </h1>
        {tagline ? <p className="auth__tagline">{tagline}</p> : null}
        <div className="auth__body">{children}</div>
      </section>
      {footer ? <div className="auth__footer">{footer}</div> : null}
    </div>
  );
}
