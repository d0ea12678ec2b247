import { useEffect, useState, type ChangeEvent, type FormEvent, type KeyboardEvent } from 'react';
import { useAtomValue } from 'jotai';
import { Link, Navigate, useNavigate, useParams } from 'react-router-dom';
import { EDIT_FIELD_MAX_LENGTH, PASSWORD_MAX_LENGTH, USERNAME_MAX_LENGTH } from '../../../../api/contract/limits';
import { SERVER_ERROR, UPLOAD_FAILED, UPLOAD_NOT_AN_IMAGE } from '../../../../api/contract/texts';
import { ApiError } from '../../api/client';
import type { EditableUserField, PictureKind, UpdateUserRequest, User } from '../../api/types';
import { useUpdateUser, useUploadPicture } from '../../api/users';
import { CameraIcon, LogoutIcon, PencilIcon } from '../../components/Icons';
import { JoinSettingSection } from '../../components/JoinSetting';
import { MessagePopup } from '../../components/MessagePopup';
import { Avatar, Cover } from '../../components/ProfileImages';
import { Spinner } from '../../components/Spinner';
import { usePageTitle } from '../../components/usePageTitle';
import { AddressForm } from './AddressForm';
import { SessionsSection } from './SessionsSection';
import { AccountSection } from './AccountSection';
import { BlockedSection } from './BlockedSection';
import { PayoutsSection } from './PayoutsSection';
import { SavedCardSection } from './SavedCardSection';
import { CurrentPasswordField } from './CurrentPasswordField';
import { PauseSection } from './PauseSection';
import { PresenceSection } from './PresenceSection';
import { NotificationsSection } from './NotificationsSection';
import { SettingsNav, SettingsSection, useSettingsSection } from './SettingsSections';
import { userAtom } from '../../state/session';
import { useLogout } from '../../state/useSession';
import './SettingsPage.css';

const IMAGE_TYPES = ['image/png', 'image/jpeg'];

interface FieldSpec {
  key: EditableUserField;
  label: string;
  type: 'text' | 'email' | 'password';
  autoComplete: string;
  placeholder: string;
  /** The most characters the server takes; a counter ('12/40') shows it, nothing is cut silently. */
  max: number;
}

const FIELDS: FieldSpec[] = [
  { key: 'username', label: 'Username', type: 'text', autoComplete: 'username', placeholder: 'Add a username', max: USERNAME_MAX_LENGTH },
  {
    key: 'displayName',
    label: 'Display Name',
    type: 'text',
    autoComplete: 'nickname',
    placeholder: 'Add a display name',
    max: EDIT_FIELD_MAX_LENGTH,
  },
  { key: 'email', label: 'Email', type: 'email', autoComplete: 'email', placeholder: 'Add an email', max: EDIT_FIELD_MAX_LENGTH },
  { key: 'bio', label: 'Bio', type: 'text', autoComplete: 'off', placeholder: 'Add a bio', max: EDIT_FIELD_MAX_LENGTH },
  {
    key: 'location',
    label: 'Location',
    type: 'text',
    autoComplete: 'address-level2',
    placeholder: 'Add a location',
    max: EDIT_FIELD_MAX_LENGTH,
  },
  { key: 'password', label: 'Password', type: 'password', autoComplete: 'new-password', placeholder: '', max: PASSWORD_MAX_LENGTH },
];

/** The first field edited past its limit, as the message to show ('Bio must be at most 40 characters.'). */
function tooLong(drafts: Drafts): string | null {
  const field = FIELDS.find(({ key, max }) => (key === 'password' ? drafts[key] : drafts[key].trim()).length > max);
  return field ? `${field.label} must be at most ${field.max} characters.` : null;
}

type Drafts = Record<EditableUserField, string>;

function draftsFrom(user: User): Drafts {
  return {
    username: user.username ?? '',
    displayName: user.displayName ?? '',
    email: user.email ?? '',
    bio: user.bio ?? '',
    location: user.location ?? '',
    password: '',
  };
}

/** Only what changed; a blank password means "keep the current one". */
function changesBetween(user: User, drafts: Drafts): UpdateUserRequest {
  const original = draftsFrom(user);
  const changes: UpdateUserRequest = {};
  for (const { key } of FIELDS) {
    const value = drafts[key].trim();
    if (key === 'password') {
      if (drafts.password.trim() !== '') changes.password = drafts.password;
    } else if (value !== original[key]) {
      changes[key] = value;
    }
  }
  return changes;
}

function saveErrorMessage(err: unknown): string {
  if (err instanceof ApiError) {
    if (err.status === 0) return err.message;
    if (err.status >= 400 && err.status < 500 && err.message) return err.message;
  }
  return SERVER_ERROR;
}

export function SettingsPage() {
  const { username = '' } = useParams();
  const user = useAtomValue(userAtom);
  usePageTitle('Settings');
  if (!user) return null; // ProtectedRoute guarantees a user
  if (user.username.toLowerCase() !== username.toLowerCase()) {
    return <Navigate to={`/profile/${encodeURIComponent(user.username)}/settings`} replace />;
  }
  return <SettingsForm user={user} />;
}

function SettingsForm({ user }: { user: User }) {
  const save = useUpdateUser(user._id);
  const upload = useUploadPicture();
  const logout = useLogout();
  const navigate = useNavigate();
  const [drafts, setDrafts] = useState<Drafts>(() => draftsFrom(user));
  const [editing, setEditing] = useState<Partial<Record<EditableUserField, boolean>>>({});
  const [currentPassword, setCurrentPassword] = useState('');
  const [status, setStatus] = useState<{ kind: 'success' | 'error' | 'info'; text: string } | null>(null);
  const [popup, setPopup] = useState<string | null>(null);
  const [loggingOut, setLoggingOut] = useState(false);
  const saving = save.isPending;
  const uploading: PictureKind | null = upload.isPending ? upload.variables.kind : null;
  const section = useSettingsSection();

  // A success note fades after a few seconds.
  useEffect(() => {
    if (status?.kind !== 'success') return;
    const timer = window.setTimeout(() => setStatus(null), 4000);
    return () => window.clearTimeout(timer);
  }, [status]);

  const name = user.displayName || user.username;

  function startEditing(key: EditableUserField) {
    setEditing((current) => ({ ...current, [key]: true }));
    setStatus(null);
  }

  function cancelEditing(key: EditableUserField) {
    setEditing((current) => ({ ...current, [key]: false }));
    setDrafts((current) => ({ ...current, [key]: draftsFrom(user)[key] }));
  }

  function onFieldKeyDown(key: EditableUserField, event: KeyboardEvent<HTMLInputElement>) {
    if (event.key === 'Escape') {
      event.preventDefault();
      cancelEditing(key);
    }
  }

  async function onSave(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (saving) return;
    const over = tooLong(drafts);
    if (over) {
      setStatus({ kind: 'error', text: over });
      return;
    }
    const changes = changesBetween(user, drafts);
    if (Object.keys(changes).length === 0) {
      setEditing({});
      setDrafts(draftsFrom(user));
      setStatus({ kind: 'info', text: 'No changes to save.' });
      return;
    }
    // How one signs in changes only with the current password (the server refuses it otherwise).
    if (changes.email !== undefined || changes.password !== undefined) changes.currentPassword = currentPassword;
    setStatus(null);
    try {
      const updated = await save.mutateAsync(changes);
      setDrafts(draftsFrom(updated));
      setEditing({});
      setCurrentPassword('');
      setStatus({ kind: 'success', text: 'Changes saved.' });
      if (updated.username !== user.username) {
        navigate(`/profile/${encodeURIComponent(updated.username)}/settings`, { replace: true });
      }
    } catch (err) {
      setStatus({ kind: 'error', text: saveErrorMessage(err) });
    }
  }

  function onPickImage(kind: PictureKind, event: ChangeEvent<HTMLInputElement>) {
    const input = event.currentTarget;
    const file = input.files?.[0];
    input.value = '';
    if (!file) return;
    if (!IMAGE_TYPES.includes(file.type)) {
      setPopup(UPLOAD_NOT_AN_IMAGE);
      return;
    }
    if (uploading) return;
    // The server's 415 says the bytes are not a PNG or JPEG; anything else is the spec's catch-all.
    const onError = (err: unknown) => setPopup(err instanceof ApiError && err.status === 415 ? UPLOAD_NOT_AN_IMAGE : UPLOAD_FAILED);
    upload.mutate({ file, kind }, { onError });
  }

  async function onLogout() {
    setLoggingOut(true);
    await logout();
  }

  return (
    <div className="settings">
      <header className="page-header">
        <h1>Settings</h1>
        <p>
          Signed in as <Link to={`/profile/${encodeURIComponent(user.username)}`}>@{user.username}</Link> ·{' '}
          <Link to="/money">Money history</Link>
        </p>
      </header>

      <SettingsNav active={section} />

      <SettingsSection id="profile" active={section}>
        <section className="card settings__pictures" aria-labelledby="settings-pictures">
          <h2 id="settings-pictures" className="visually-hidden">
            Pictures
          </h2>
          <div className="settings__cover">
            <Cover src={user.coverPicture} name={name} />
            {uploading === 'coverPhoto' ? (
              <div className="settings__uploading">
                <Spinner light label="Uploading cover photo" />
              </div>
            ) : null}
            <label className="btn btn--sm settings__cover-button">
              <CameraIcon size={16} />
              <span>Change cover photo</span>
              <input
                type="file"
                className="visually-hidden"
                accept="image/png, image/jpeg, .png, .jpg, .jpeg"
                disabled={uploading !== null}
                onChange={(event) => onPickImage('coverPhoto', event)}
              />
            </label>
          </div>
          <div className="settings__avatar-row">
            <div className="settings__avatar">
              <Avatar src={user.profilePicture} name={name} size={96} />
              {uploading === 'profilePicture' ? (
                <div className="settings__uploading settings__uploading--round">
                  <Spinner light label="Uploading profile picture" />
                </div>
              ) : null}
            </div>
            <label className="btn btn--sm btn--soft">
              <CameraIcon size={16} />
              <span>Change profile picture</span>
              <input
                type="file"
                className="visually-hidden"
                accept="image/png, image/jpeg, .png, .jpg, .jpeg"
                disabled={uploading !== null}
                onChange={(event) => onPickImage('profilePicture', event)}
              />
            </label>
          </div>
          <p className="field-hint settings__pictures-hint">PNG or JPEG. Large pictures are resized.</p>
        </section>

        <form className="settings__form" onSubmit={onSave}>
          <section className="card settings__fields" aria-labelledby="settings-profile">
            <h2 id="settings-profile" className="settings__section-title">
              Profile
            </h2>
            <ul className="settings__list">
              {FIELDS.map((field) => {
                const id = `settings-${field.key}`;
                const value = field.key === 'password' ? '' : draftsFrom(user)[field.key];
                return (
                  <li key={field.key} className="settings__item">
                    {editing[field.key] ? (
                      <div className="field settings__edit">
                        <label htmlFor={id}>{field.label}</label>
                        <input
                          id={id}
                          className="input"
                          type={field.type}
                          name={field.key}
                          autoComplete={field.autoComplete}
                          autoCapitalize={field.key === 'username' || field.key === 'email' ? 'none' : undefined}
                          aria-describedby={`${id}-count`}
                          aria-invalid={drafts[field.key].length > field.max || undefined}
                          autoFocus
                          placeholder={field.key === 'password' ? 'New password' : undefined}
                          value={drafts[field.key]}
                          onChange={(event) => setDrafts((current) => ({ ...current, [field.key]: event.target.value }))}
                          onKeyDown={(event) => onFieldKeyDown(field.key, event)}
                        />
                        <span className="settings__hints">
                          {field.key === 'password' ? <span className="field-hint">Leave blank to keep your current password.</span> : null}
                          <CharacterCount id={`${id}-count`} length={drafts[field.key].length} max={field.max} />
                        </span>
                      </div>
                    ) : (
                      <button
                        type="button"
                        className="settings__row"
                        onClick={() => startEditing(field.key)}
                        title={`Click to edit ${field.label}`}
                      >
                        <span className="settings__row-label">{field.label}</span>
                        <span className={value ? 'settings__row-value' : 'settings__row-value is-empty'}>
                          {field.key === 'password' ? '••••••••' : value || field.placeholder}
                        </span>
                        <PencilIcon size={16} className="settings__row-icon" />
                      </button>
                    )}
                  </li>
                );
              })}
            </ul>
            {editing.email || editing.password ? <CurrentPasswordField value={currentPassword} onChange={setCurrentPassword} /> : null}
          </section>

          {status ? (
            <div
              className={status.kind === 'error' ? 'alert' : status.kind === 'success' ? 'alert alert--success' : 'alert alert--info'}
              role={status.kind === 'error' ? 'alert' : 'status'}
            >
              {status.text}
            </div>
          ) : null}

          <button type="submit" className="btn btn--primary btn--block settings__save" disabled={saving}>
            {saving ? <Spinner size={18} light label="Saving" /> : null}
            Save Changes
          </button>
        </form>
      </SettingsSection>

      <SettingsSection id="address" active={section}>
        <AddressForm />
      </SettingsSection>

      <SettingsSection id="payouts" active={section}>
        <SavedCardSection userId={user._id} />
        <PayoutsSection />
      </SettingsSection>

      <SettingsSection id="privacy" active={section}>
        <PauseSection user={user} />
        <PresenceSection user={user} />
        <JoinSettingSection />
      </SettingsSection>

      <SettingsSection id="notifications" active={section}>
        <NotificationsSection />
      </SettingsSection>

      <SettingsSection id="devices" active={section}>
        <SessionsSection />
      </SettingsSection>

      <SettingsSection id="blocked" active={section}>
        <BlockedSection />
      </SettingsSection>

      <SettingsSection id="data" active={section}>
        <AccountSection />
      </SettingsSection>

      {/* Logout is under every section. */}

      <section className="card settings__account" aria-labelledby="settings-account">
        <h2 id="settings-account" className="settings__section-title">
          Account
        </h2>
        <button type="button" className="btn btn--danger btn--block" onClick={onLogout} disabled={loggingOut}>
          <LogoutIcon size={18} />
          Logout
        </button>
      </section>

      {popup ? <MessagePopup message={popup} onClose={() => setPopup(null)} /> : null}
    </div>
  );
}

/** '12/40' under a field; past the limit it turns red and says by how much. */
function CharacterCount({ id, length, max }: { id: string; length: number; max: number }) {
  const over = length - max;
  return (
    <span id={id} className={over > 0 ? 'settings__count is-over' : 'settings__count'}>
      <span aria-hidden="true">
        {length}/{max}
      </span>
      <span className="visually-hidden">
        {length} of {max} characters
      </span>
      {over > 0 ? (
        <span className="settings__count-over"> · {over === 1 ? '1 character too many' : `${over} characters too many`}</span>
      ) : null}
    </span>
  );
}
