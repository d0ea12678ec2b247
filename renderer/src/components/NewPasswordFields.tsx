import { useEffect, useRef, useState, type RefObject } from 'react';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '../../../api/contract/limits';
import { PASSWORDS_DO_NOT_MATCH } from '../../../api/contract/texts';

export interface NewPassword {
  password: string;
  setPassword: (value: string) => void;
  confirm: string;
  setConfirm: (value: string) => void;
  confirmRef: RefObject<HTMLInputElement | null>;
  /** True when the two agree; otherwise the browser shows 'Passwords do not match' on the confirm field. */
  confirmed: () => boolean;
}

/** A new password typed twice (register, reset): the browser shows the mismatch on submit. */
export function useNewPassword(): NewPassword {
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const confirmRef = useRef<HTMLInputElement>(null);

  useEffect(() => {
    confirmRef.current?.setCustomValidity(confirm !== '' && password !== confirm ? PASSWORDS_DO_NOT_MATCH : '');
  }, [password, confirm]);

  const confirmed = () => {
    if (password === confirm) return true;
    confirmRef.current?.setCustomValidity(PASSWORDS_DO_NOT_MATCH);
    confirmRef.current?.reportValidity();
    return false;
  };
  return { password, setPassword, confirm, setConfirm, confirmRef, confirmed };
}

interface Props {
  state: NewPassword;
  /** Prefix of the inputs' ids ('register', 'reset'). */
  idPrefix: string;
  passwordLabel: string;
  confirmLabel: string;
  /** Say the length rule under the first field. */
  hint?: boolean;
}

/** The two password fields of a form that sets a new password, with the register rules. */
export function NewPasswordFields({ state, idPrefix, passwordLabel, confirmLabel, hint = false }: Props) {
  const { password, setPassword, confirm, setConfirm, confirmRef } = state;
  const input = {
    className: 'input',
    type: 'password',
    autoComplete: 'new-password',
    required: true,
    minLength: PASSWORD_MIN_LENGTH,
    maxLength: PASSWORD_MAX_LENGTH,
  } as const;
  return (
    <>
      <div className="field">
        <label htmlFor={`${idPrefix}-password`}>{passwordLabel}</label>
        <input
          {...input}
          id={`${idPrefix}-password`}
          name="password"
          value={password}
          onChange={(event) => setPassword(event.target.value)}
        />
        {hint ? (
          <span className="field-hint">
            {PASSWORD_MIN_LENGTH}-{PASSWORD_MAX_LENGTH} characters.
          </span>
        ) : null}
      </div>
      <div className="field">
        <label htmlFor={`${idPrefix}-confirm`}>{confirmLabel}</label>
        <input
          {...input}
          ref={confirmRef}
          id={`${idPrefix}-confirm`}
          name="confirmPassword"
          value={confirm}
          onChange={(event) => setConfirm(event.target.value)}
        />
      </div>
    </>
  );
}
