import { useEffect, useRef, useState, type ComponentType } from 'react';
import { useAtomValue, useSetAtom } from 'jotai';
import { NavLink, useLocation } from 'react-router-dom';
import { balanceDialogOpenAtom } from '../state/balance';
import { unreadCountsAtom } from '../state/realtime';
import { balanceAtom, userAtom } from '../state/session';
import { formatDollars } from '../format';
import {
  BellIcon,
  ChatIcon,
  ClockIcon,
  CloseIcon,
  HeartListIcon,
  MenuIcon,
  PackageIcon,
  SettingsIcon,
  StarIcon,
  TicketIcon,
  UserIcon,
  WalletIcon,
} from './Icons';
import { AppLink, LinkFromHere } from './AppLinks';
import { TopBarFrame, VisitorActions } from './VisitorChrome';
import './TopBar.css';

type CountKey = 'unreadNotifications' | 'unreadMessages';

interface MenuEntry {
  label: string;
  to: string;
  icon: ComponentType<{ size?: number }>;
  end?: boolean;
  /** The unread count shown beside it; such entries are icon shortcuts in the bar on phones. */
  count?: CountKey;
  /** Behind the menu button on desktops too, so the bar keeps room for the full balance. */
  more?: boolean;
}

/** "Messages, 2 unread": the count is part of the link's name, the badge itself is hidden from it. */
export function unreadLabel(label: string, count: number): string {
  return count > 0 ? `${label}, ${count} unread` : label;
}

function CountBadge({ count }: { count: number }) {
  if (count <= 0) return null;
  return (
    <span className="count-badge" aria-hidden="true">
      {count > 99 ? '99+' : count}
    </span>
  );
}

function menuEntries(username: string): MenuEntry[] {
  const name = encodeURIComponent(username);
  return [
    { label: 'Profile', to: `/profile/${name}`, icon: UserIcon, end: true },
    { label: 'Wishlist', to: `/wishlist/${name}`, icon: HeartListIcon },
    { label: 'Notifications', to: '/notifications', icon: BellIcon, count: 'unreadNotifications' },
    { label: 'Messages', to: '/conversations', icon: ChatIcon, count: 'unreadMessages' },
    { label: 'Orders', to: '/orders', icon: PackageIcon, more: true },
    { label: 'Money history', to: '/money', icon: ClockIcon, more: true },
    { label: 'Invites', to: '/create-invite', icon: TicketIcon, more: true },
    { label: 'Manage Subscription', to: `/manage-subscription/${name}`, icon: StarIcon, more: true },
    { label: 'Settings', to: `/profile/${name}/settings`, icon: SettingsIcon, more: true },
  ];
}

function EntryList({ entries, counts, more }: { entries: MenuEntry[]; counts: Record<CountKey, number>; more?: boolean }) {
  return (
    <ul className={more ? 'topbar__more' : undefined}>
      {entries.map(({ label, to, icon: Icon, end, count }) => (
        // Counted entries sit in the bar as shortcuts on phones, in this list on desktops.
        <li key={label} className={count ? 'topbar__item--wide' : undefined}>
          <NavLink to={to} end={end} className="topbar__link" aria-label={count ? unreadLabel(label, counts[count]) : undefined}>
            <Icon size={18} />
            <span>{label}</span>
            {/* A space (no width in the flex row) keeps the seen text 'Notifications 1', as in the name, not 'Notifications1'. */}
            {count ? ' ' : null}
            {count ? <CountBadge count={counts[count]} /> : null}
          </NavLink>
        </li>
      ))}
    </ul>
  );
}

export function TopBar() {
  const user = useAtomValue(userAtom);
  const balance = useAtomValue(balanceAtom);
  const counts = useAtomValue(unreadCountsAtom);
  const openBalanceDialog = useSetAtom(balanceDialogOpenAtom);
  const location = useLocation();
  // The phone menu is open for the page it was opened on, so it closes when the page changes.
  const [openOn, setOpenOn] = useState<string | null>(null);
  const open = openOn === location.pathname;
  const setOpen = (value: boolean) => setOpenOn(value ? location.pathname : null);
  const barRef = useRef<HTMLElement>(null);
  const menuButtonRef = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    if (!open) return;
    function onPointerDown(event: PointerEvent) {
      if (barRef.current && !barRef.current.contains(event.target as Node)) setOpenOn(null);
    }
    function onKeyDown(event: KeyboardEvent) {
      if (event.key === 'Escape') {
        setOpenOn(null);
        menuButtonRef.current?.focus();
      }
    }
    // Opening the menu moves focus into it: the dropdown on desktops, the panel on phones.
    const nav = document.getElementById('topbar-menu');
    const panel = window.matchMedia('(min-width: 1240px)').matches ? nav?.querySelector('.topbar__more') : nav;
    [...(panel?.querySelectorAll<HTMLElement>('a') ?? [])].find((link) => link.getClientRects().length > 0)?.focus();
    document.addEventListener('pointerdown', onPointerDown);
    document.addEventListener('keydown', onKeyDown);
    return () => {
      document.removeEventListener('pointerdown', onPointerDown);
      document.removeEventListener('keydown', onKeyDown);
    };
  }, [open]);

  const entries = user ? menuEntries(user.username) : [];

  // PRODUCT.md: the balance is shown with 2 decimals, in full, at every width (the bar's CSS makes room for $999,999.99).
  const balanceText = formatDollars(balance);

  return (
    <TopBarFrame Link={AppLink} barRef={barRef}>
      {user ? (
        <>
          <nav id="topbar-menu" className={open ? 'topbar__nav is-open' : 'topbar__nav'} aria-label="Main">
            {/* Phones: one panel with both lists. Desktops: the first list in the bar, the second a dropdown. */}
            <EntryList entries={entries.filter((entry) => !entry.more)} counts={counts} />
            <EntryList entries={entries.filter((entry) => entry.more)} counts={counts} more />
          </nav>
          <div className="topbar__actions">
            {entries
              .filter((entry) => entry.count)
              .map(({ label, to, icon: Icon, count }) => (
                <NavLink key={label} to={to} className="topbar__shortcut" aria-label={unreadLabel(label, counts[count!])} title={label}>
                  <Icon size={21} />
                  <CountBadge count={counts[count!]} />
                </NavLink>
              ))}
            <button
              type="button"
              className="balance-button"
              aria-label={`Balance ${balanceText}`}
              aria-haspopup="dialog"
              title={`Your balance: ${balanceText}. Deposit or withdraw`}
              onClick={() => {
                setOpenOn(null);
                openBalanceDialog(true);
              }}
            >
              <WalletIcon size={18} />
              <span className="balance-button__amount" aria-hidden="true">
                {balanceText}
              </span>
            </button>
            <button
              ref={menuButtonRef}
              type="button"
              className="btn btn--ghost btn--icon topbar__menu-button"
              aria-expanded={open}
              aria-controls="topbar-menu"
              aria-label={open ? 'Close menu' : 'Open menu'}
              onClick={() => setOpen(!open)}
            >
              {open ? <CloseIcon size={22} /> : <MenuIcon size={22} />}
            </button>
          </div>
        </>
      ) : (
        <VisitorActions Link={AppLink} LoginLink={LinkFromHere} />
      )}
    </TopBarFrame>
  );
}
