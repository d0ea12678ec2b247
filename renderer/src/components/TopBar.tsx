import { useEffect, useRef, useState, type ComponentType } from 'react';
import { useAtomValue, useSetAtom } from 'jotai';
import { Link, NavLink, useLocation } from 'react-router-dom';
import { balanceDialogOpenAtom } from '../state/balance';
import { balanceAtom, userAtom } from '../state/session';
import { fromLocation } from '../state/navigation';
import { formatDollars } from '../format';
import {
  BellIcon,
  ChatIcon,
  CloseIcon,
  HeartListIcon,
  MenuIcon,
  SettingsIcon,
  StarIcon,
  TicketIcon,
  UserIcon,
  WalletIcon,
} from './Icons';
import { LogoMark, Wordmark } from './Logo';
import './TopBar.css';

interface MenuEntry {
  label: string;
  to: string;
  icon: ComponentType<{ size?: number }>;
  end?: boolean;
}

function menuEntries(username: string): MenuEntry[] {
  const name = encodeURIComponent(username);
  return [
    { label: 'Profile', to: `/profile/${name}`, icon: UserIcon, end: true },
    { label: 'Wishlist', to: `/wishlist/${name}`, icon: HeartListIcon },
    { label: 'Notifications', to: '/notifications', icon: BellIcon },
    { label: 'Messages', to: '/conversations', icon: ChatIcon },
    { label: 'Manage Subscription', to: `/manage-subscription/${name}`, icon: StarIcon },
    { label: 'Settings', to: `/profile/${name}/settings`, icon: SettingsIcon },
    { label: 'Invites', to: '/create-invite', icon: TicketIcon },
  ];
}

export function TopBar() {
  const user = useAtomValue(userAtom);
  const balance = useAtomValue(balanceAtom);
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
    document.addEventListener('pointerdown', onPointerDown);
    document.addEventListener('keydown', onKeyDown);
    return () => {
      document.removeEventListener('pointerdown', onPointerDown);
      document.removeEventListener('keydown', onKeyDown);
    };
  }, [open]);

  const balanceText = formatDollars(balance);

  return (
    <header className="topbar" ref={barRef}>
      <div className="topbar__inner">
        <Link to="/" className="topbar__home" aria-label="Home">
          <LogoMark size={34} />
          <Wordmark />
        </Link>

        {user ? (
          <>
            <nav
              id="topbar-menu"
              className={open ? 'topbar__nav is-open' : 'topbar__nav'}
              aria-label="Main"
            >
              <ul>
                {menuEntries(user.username).map(({ label, to, icon: Icon, end }) => (
                  <li key={label}>
                    <NavLink to={to} end={end} className="topbar__link">
                      <Icon size={18} />
                      <span>{label}</span>
                    </NavLink>
                  </li>
                ))}
              </ul>
            </nav>
            <div className="topbar__actions">
              <button
                type="button"
                className="balance-button"
                aria-label={`Balance ${balanceText}`}
                aria-haspopup="dialog"
                title="Your balance: deposit or withdraw"
                onClick={() => {
                  setOpenOn(null);
                  openBalanceDialog(true);
                }}
              >
                <WalletIcon size={18} />
                <span>{balanceText}</span>
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
          <div className="topbar__actions">
            <Link className="btn btn--sm btn--ghost" to="/login" state={fromLocation(location)}>
              Login
            </Link>
            <Link className="btn btn--sm btn--primary" to="/register">
              Register
            </Link>
          </div>
        )}
      </div>
    </header>
  );
}
