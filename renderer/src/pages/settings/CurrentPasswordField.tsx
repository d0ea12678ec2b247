import { PASSWORD_MAX_LENGTH } from '../../../../api/contract/limits';
import { CURRENT_PASSWORD } from '../../../../api/contract/texts';
import './CurrentPasswordField.css';

/** Asked for with a new email or password (the server refuses those without it), as deleting the account does. */
export function CurrentPasswordField({ value, onChange }: { value: string; onChange: (value: string) => void }) {
  return (
    <div className="field settings__edit settings__current-password">
      <label htmlFor="settings-current-password">{CURRENT_PASSWORD}</label>
      <input
        id="settings-current-password"
        className="input"
        type="password"
        name="currentPassword"
        autoComplete="current-password"
        maxLength={PASSWORD_MAX_LENGTH}
        value={value}
        onChange={(event) => onChange(event.target.value)}
      />
    </div>
  );
}
