import { useId, useState } from 'react';
import { useAtomValue } from 'jotai';
import { Link } from 'react-router-dom';
import { LET_VISITORS_JOIN, SERVER_ERROR } from '../../../api/contract/texts';
import { errorMessage } from '../api/client';
import { useJoinSetting } from '../api/invites';
import { userAtom } from '../state/session';
import './JoinSetting.css';

/**
 * 'Let people who open my links join Giftlink': the signed-in user's own setting, saved as soon
 * as it changes. On the create-link form and in Settings.
 */
export function JoinSettingCheckbox() {
  const user = useAtomValue(userAtom);
  const setting = useJoinSetting();
  const hintId = useId();
  // What was just clicked, until the server answers (the answer then becomes the session's user).
  const [saving, setSaving] = useState<boolean | null>(null);
  if (!user) return null;
  const checked = saving ?? user.letVisitorsJoin;
  return (
    <div className="join-setting">
      <label className="join-setting__label">
        <input
          type="checkbox"
          className="join-setting__box"
          checked={checked}
          aria-describedby={hintId}
          onChange={(event) => {
            setSaving(event.target.checked);
            setting.mutate(event.target.checked, { onSettled: () => setSaving(null) });
          }}
        />
        <span>{LET_VISITORS_JOIN}</span>
      </label>
      <p id={hintId} className="field-hint join-setting__hint">
        Friends who open your link or wishlist can join and give. Your own invites stay yours. <Link to="/create-invite">Your invites</Link>
      </p>
      {setting.isError ? (
        <p className="field-error" role="alert">
          {errorMessage(setting.error, SERVER_ERROR)}
        </p>
      ) : null}
    </div>
  );
}

/** The Settings page's section holding the setting. */
export function JoinSettingSection() {
  return (
    <section className="card join-setting-section" aria-labelledby="settings-join">
      <h2 id="settings-join" className="settings__section-title join-setting-section__title">
        Invites
      </h2>
      <JoinSettingCheckbox />
    </section>
  );
}
