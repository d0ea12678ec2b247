import { useId, useState } from 'react';
import { SERVER_ERROR } from '../../../../api/contract/texts';
import { GIFTS_PAUSED_SAVED, GIFTS_RESUMED_SAVED, PAUSE_GIFTS, PAUSE_GIFTS_HINT } from '../../../../api/contract/account-texts';
import { errorMessage } from '../../api/client';
import type { User } from '../../api/types';
import { useUpdateUser } from '../../api/users';
import '../../components/Switch.css';
import './PauseSection.css';

/**
 * Settings → Privacy: 'Pause gifts'. While it is on, the user's link and wishlist stay up but take
 * no gifts, and the link's time stands still; saved as soon as it changes, and said so once saved.
 */
export function PauseSection({ user }: { user: User }) {
  const save = useUpdateUser(user._id);
  const hintId = useId();
  const inputId = useId();
  // What was just switched, until the server answers (the answer then becomes the session's user).
  const [saving, setSaving] = useState<boolean | null>(null);
  const checked = saving ?? user.giftsPaused;

  return (
    <section className="card pause-setting" aria-labelledby="settings-pause">
      <div className="pause-setting__row">
        <label id="settings-pause" htmlFor={inputId} className="pause-setting__label">
          {PAUSE_GIFTS}
        </label>
        <input
          id={inputId}
          type="checkbox"
          role="switch"
          className="switch"
          checked={checked}
          aria-checked={checked}
          aria-describedby={hintId}
          disabled={save.isPending}
          onChange={(event) => {
            const on = event.target.checked;
            setSaving(on);
            save.mutate({ giftsPaused: on }, { onSettled: () => setSaving(null) });
          }}
        />
      </div>
      <p id={hintId} className="field-hint">
        {PAUSE_GIFTS_HINT}
      </p>
      {save.isError ? (
        <p className="field-error" role="alert">
          {errorMessage(save.error, SERVER_ERROR)}
        </p>
      ) : (
        <p className="pause-setting__saved" role="status">
          {save.isSuccess ? (save.data.giftsPaused ? GIFTS_PAUSED_SAVED : GIFTS_RESUMED_SAVED) : ''}
        </p>
      )}
    </section>
  );
}
