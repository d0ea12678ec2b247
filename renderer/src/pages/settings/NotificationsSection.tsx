import { useState } from 'react';
import type { AlertChannel, AlertKind } from '../../../../api/contract/alerts';
import {
  ALERT_ALWAYS_ON,
  ALERT_PREFERENCES_HINT,
  ALERT_PREFERENCES_LOAD_FAILED,
  ALERT_PREFERENCES_TITLE,
  SERVER_ERROR,
} from '../../../../api/contract/texts';
import { errorMessage } from '../../api/client';
import { useAlertPreferencesQuery, useSaveAlertPreferences } from '../../api/alerts';
import { Spinner } from '../../components/Spinner';
import { PushDevices } from './PushDevices';
import '../../components/Switch.css';
import './NotificationsSection.css';

const CHANNEL_LABELS: Record<AlertChannel, string> = { email: 'Email', push: 'Push' };

/**
 * Settings → Notifications: a row per alert kind, a switch per channel that delivers (email and
 * push; push reaches the devices listed below). Security kinds are always on. Each switch saves at once.
 */
export function NotificationsSection() {
  const preferences = useAlertPreferencesQuery();
  const save = useSaveAlertPreferences();
  // What was just switched, until the server answers.
  const [saving, setSaving] = useState<Partial<Record<`${AlertKind}:${AlertChannel}`, boolean>>>({});

  const channels = preferences.data?.available ?? [];

  return (
    <section className="card alert-settings" aria-labelledby="settings-notifications">
      <h2 id="settings-notifications" className="settings__section-title alert-settings__title">
        {ALERT_PREFERENCES_TITLE}
      </h2>
      <p className="field-hint alert-settings__hint">{ALERT_PREFERENCES_HINT}</p>
      {preferences.isPending ? (
        <Spinner label="Loading your notification settings" />
      ) : preferences.isError ? (
        <p className="field-error" role="alert">
          {ALERT_PREFERENCES_LOAD_FAILED}
        </p>
      ) : (
        <table className="alert-settings__table">
          <thead>
            <tr>
              <th scope="col" className="visually-hidden">
                Notification
              </th>
              {channels.map((channel) => (
                <th key={channel} scope="col" className="alert-settings__channel">
                  {CHANNEL_LABELS[channel]}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {preferences.data.preferences.map((pref) => (
              <tr key={pref.kind}>
                <th scope="row" className="alert-settings__kind">
                  {pref.label}
                  {pref.locked ? <span className="alert-settings__locked">{ALERT_ALWAYS_ON}</span> : null}
                </th>
                {channels.map((channel) => {
                  const key = `${pref.kind}:${channel}` as const;
                  const checked = saving[key] ?? pref.channels[channel];
                  return (
                    <td key={channel} className="alert-settings__cell">
                      <input
                        type="checkbox"
                        role="switch"
                        className="switch"
                        aria-label={`${pref.label}: ${CHANNEL_LABELS[channel]}`}
                        checked={checked}
                        aria-checked={checked}
                        disabled={pref.locked}
                        onChange={(event) => {
                          const enabled = event.target.checked;
                          setSaving((current) => ({ ...current, [key]: enabled }));
                          save.mutate(
                            { preferences: [{ kind: pref.kind, channel, enabled }] },
                            {
                              onSettled: () =>
                                setSaving((current) => {
                                  const next = { ...current };
                                  delete next[key];
                                  return next;
                                }),
                            },
                          );
                        }}
                      />
                    </td>
                  );
                })}
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {save.isError ? (
        <p className="field-error" role="alert">
          {errorMessage(save.error, SERVER_ERROR)}
        </p>
      ) : null}
      {channels.includes('push') ? <PushDevices /> : null}
    </section>
  );
}
