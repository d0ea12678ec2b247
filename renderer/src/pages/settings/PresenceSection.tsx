import { useId, useState } from 'react';
import { SERVER_ERROR, SHOW_PRESENCE, SHOW_PRESENCE_HINT } from '../../../../api/contract/texts';
import { errorMessage } from '../../api/client';
import type { User } from '../../api/types';
import { useUpdateUser } from '../../api/users';
import '../../components/Switch.css';
import './PresenceSection.css';

/**
 * Settings → Privacy: 'Show when I'm online', off until the user turns it on, saved as soon as it
 * changes. Presence is shown only to people who talk with the user by name, and only while both show it.
 */
export function PresenceSection({ user }: { user: User }) {
  const save = useUpdateUser(user._id);
  const hintId = useId();
  const inputId = useId();
  // What was just switched, until the server answers (the answer then becomes the session's user).
  const [saving, setSaving] = useState<boolean | null>(null);
  const checked = saving ?? user.showPresence;

  return (
    <section className="card presence-setting" aria-labelledby="settings-privacy">
      <h2 id="settings-privacy" className="settings__section-title presence-setting__title">
        Privacy
      </h2>
      <div className="presence-setting__row">
        <label htmlFor={inputId} className="presence-setting__label">
          {SHOW_PRESENCE}
        </label>
        <input
          id={inputId}
          type="checkbox"
          role="switch"
          className="switch"
          checked={checked}
          aria-checked={checked}
          aria-describedby={hintId}
          onChange={(event) => {
            const on = event.target.checked;
            setSaving(on);
            save.mutate({ showPresence: on }, { onSettled: () => setSaving(null) });
          }}
        />
      </div>
      <p id={hintId} className="field-hint presence-setting__hint">
        {SHOW_PRESENCE_HINT}
      </p>
      {save.isError ? (
        <p className="field-error" role="alert">
          {errorMessage(save.error, SERVER_ERROR)}
        </p>
      ) : null}
    </section>
  );
}
