import type { FormEvent } from 'react';
import type { Anchor } from '../../components/Anchor.js';
import { Spinner } from '../../components/Spinner.js';

interface LoginFormProps {
  Link: Anchor;
  passwordMinLength: number;
  busy?: boolean;
  error?: string | false;
  /** Left out on the server's first paint: its fields are the browser's until the app takes them over. */
  email?: string;
  password?: string;
  onEmail?: (value: string) => void;
  onPassword?: (value: string) => void;
  onSubmit?: (event: FormEvent<HTMLFormElement>) => void;
}

/**
 * The login form. Pure: the server paints it before any script runs; `method="post"` keeps a
 * password out of any address should it be sent before the app holds it.
 */
export function LoginForm({
  Link,
  passwordMinLength,
  busy = false,
  error,
  email,
  password,
  onEmail,
  onPassword,
  onSubmit,
}: LoginFormProps) {
  return (
    <form className="form" method="post" onSubmit={onSubmit} aria-busy={busy}>
      {error ? (
        <div className="alert" role="alert">
          {error}
        </div>
      ) : null}
      <div className="field">
        <label htmlFor="login-email">Email</label>
        <input
          id="login-email"
          className="input"
          type="email"
          name="email"
          autoComplete="email"
          inputMode="email"
          required
          value={email}
          onChange={onEmail && ((event) => onEmail(event.currentTarget.value))}
        />
      </div>
      <div className="field">
        <label htmlFor="login-password">Password</label>
        <input
          id="login-password"
          className="input"
          type="password"
          name="password"
          autoComplete="current-password"
          required
          minLength={passwordMinLength}
          value={password}
          onChange={onPassword && ((event) => onPassword(event.currentTarget.value))}
        />
        <Link to="/forgot-password" className="field-hint login__forgot">
          Forgot password?
        </Link>
      </div>
      <button type="submit" className="btn btn--primary btn--block" disabled={busy}>
        {busy ? <Spinner size={18} light label="Logging in" /> : null}
        Log in
      </button>
    </form>
  );
}

/** Under the login card: the way to an account. */
export const LoginFooter = ({ Link }: { Link: Anchor }) => (
  <p>
    New here? <Link to="/register">Register with an invite</Link>
  </p>
);
