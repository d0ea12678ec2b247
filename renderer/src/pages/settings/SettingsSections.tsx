import { useEffect, type ReactNode } from 'react';
import { Link, useLocation } from 'react-router-dom';

/** Settings' sections, each deep-linkable as Settings#id; a phone shows one at a time. */
const SECTIONS = [
  { id: 'profile', label: 'Profile' },
  { id: 'address', label: 'Address' },
  { id: 'payouts', label: 'Payouts' },
  { id: 'privacy', label: 'Privacy' },
  { id: 'notifications', label: 'Notifications' },
  { id: 'devices', label: 'Devices' },
  { id: 'blocked', label: 'Blocked' },
  { id: 'data', label: 'Your data' },
] as const;

export type SettingsSectionId = (typeof SECTIONS)[number]['id'];

/** Where the phone layout (one section at a time) ends; SettingsPage.css has the same width. */
const DESKTOP = '(min-width: 720px)';

/** The section the address names, else the first. */
export function useSettingsSection(): SettingsSectionId {
  const { hash } = useLocation();
  const named = SECTIONS.find((section) => `#${section.id}` === hash);
  return named?.id ?? 'profile';
}

/** The list of sections: on a phone it chooses the one shown, on a desktop it jumps to one. */
export function SettingsNav({ active }: { active: SettingsSectionId }) {
  const { hash } = useLocation();
  useEffect(() => {
    if (!hash || !window.matchMedia(DESKTOP).matches) return;
    document.getElementById(hash.slice(1))?.scrollIntoView({ block: 'start' });
  }, [hash]);
  return (
    <nav className="settings__nav" aria-label="Settings sections">
      <ul>
        {SECTIONS.map(({ id, label }) => (
          <li key={id}>
            <Link to={{ hash: id }} replace className="settings__nav-link" aria-current={id === active ? 'true' : undefined}>
              {label}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}

/** One section's parts; hidden on a phone unless it is the one chosen. */
export function SettingsSection({ id, active, children }: { id: SettingsSectionId; active: SettingsSectionId; children: ReactNode }) {
  return (
    <div id={id} className={id === active ? 'settings__section is-active' : 'settings__section'}>
      {children}
    </div>
  );
}
