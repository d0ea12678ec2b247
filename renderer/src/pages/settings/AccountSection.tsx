import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router-dom';
import { PASSWORD_MAX_LENGTH } from '../../../../api/contract/limits';
import {
  ACCOUNT_PASSWORD_REQUIRED,
  DELETE_ACCOUNT_CONFIRM,
  DELETE_ACCOUNT_FAILED,
  DELETE_ACCOUNT_HINT,
  DELETE_MY_ACCOUNT,
  DOWNLOAD_MY_DATA,
  DOWNLOAD_MY_DATA_HINT,
  EXPORT_FAILED,
} from '../../../../api/contract/texts';
import { useDeleteAccount, useDownloadMyData } from '../../api/account';
import { errorMessage } from '../../api/client';
import { Dialog } from '../../components/Dialog';
import { Spinner } from '../../components/Spinner';
import { useLogout } from '../../state/useSession';
import './AccountSection.css';

/**
 * Settings → Your data: 'Download my data' (a JSON file of everything the user's own
 * screens show them) and 'Delete my account', confirmed with the password in a native `<dialog>`.
 * A refusal (money still held) shows the server's text, which says how to get the money out.
 * After deletion the app signs out locally and shows the goodbye page.
 */
export function AccountSection() {
  const download = useDownloadMyData();
  const [confirming, setConfirming] = useState(false);

  return (
    <section className="card account-data" aria-labelledby="settings-your-data">
      <h2 id="settings-your-data" className="settings__section-title account-data__title">
        Your data
      </h2>
      <p className="field-hint">{DOWNLOAD_MY_DATA_HINT}</p>
      <button type="button" className="btn btn--soft btn--block" disabled={download.isPending} onClick={() => download.mutate()}>
        {download.isPending ? <Spinner size={18} label="Preparing your data" /> : null}
        {DOWNLOAD_MY_DATA}
      </button>
      {download.isError ? (
        <p className="field-error" role="alert">
          {errorMessage(download.error, EXPORT_FAILED)}
        </p>
      ) : null}
      <p className="field-hint account-data__danger-hint">{DELETE_ACCOUNT_HINT}</p>
      <button type="button" className="btn btn--danger btn--block" onClick={() => setConfirming(true)}>
        {DELETE_MY_ACCOUNT}
      </button>
      {confirming ? <DeleteAccountDialog onClose={() => setConfirming(false)} /> : null}
    </section>
  );
}

function DeleteAccountDialog({ onClose }: { onClose: () => void }) {
  const [password, setPassword] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const remove = useDeleteAccount();
  const logout = useLogout();
  const navigate = useNavigate();
  const busy = remove.isPending;

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (!password) {
      setProblem(ACCOUNT_PASSWORD_REQUIRED);
      return;
    }
    setProblem(null);
    remove.mutate(
      { password },
      {
        // Off the signed-in pages first, so none of them sends the signed-out user to /login.
        onSuccess: async () => {
          await navigate('/goodbye', { replace: true });
          await logout('/goodbye');
        },
        onError: (err) => setProblem(errorMessage(err, DELETE_ACCOUNT_FAILED)),
      },
    );
  };

  return (
    <Dialog
      title={DELETE_MY_ACCOUNT}
      message={DELETE_ACCOUNT_CONFIRM}
      onDismiss={busy ? () => {} : onClose}
      body={
        <form id="delete-account-form" className="account-data__form" onSubmit={onSubmit} noValidate>
          <label className="field-label" htmlFor="delete-account-password">
            Password
          </label>
          <input
            id="delete-account-password"
            className="input"
            type="password"
            autoComplete="current-password"
            maxLength={PASSWORD_MAX_LENGTH}
            value={password}
            onChange={(e) => setPassword(e.target.value)}
            data-autofocus
            aria-invalid={problem ? true : undefined}
            aria-describedby={problem ? 'delete-account-problem' : undefined}
          />
          {problem ? (
            <p id="delete-account-problem" className="field-error" role="alert">
              {problem}
            </p>
          ) : null}
        </form>
      }
    >
      <button type="button" className="btn btn--ghost" onClick={onClose} disabled={busy}>
        Cancel
      </button>
      <button type="submit" form="delete-account-form" className="btn btn--danger" disabled={busy}>
        {busy ? <Spinner size={18} light label="Deleting" /> : null}
        {DELETE_MY_ACCOUNT}
      </button>
    </Dialog>
  );
}
