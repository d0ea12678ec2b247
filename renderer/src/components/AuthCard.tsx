import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { LogoMark } from './Logo';
import './AuthCard.css';

interface AuthCardProps {
  title: string;
  tagline?: string;
  children: ReactNode;
  footer?: ReactNode;
}

/** The centred card used by login, registration and the invite landing page. */
export function AuthCard({ title, tagline, children, footer }: AuthCardProps) {
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
