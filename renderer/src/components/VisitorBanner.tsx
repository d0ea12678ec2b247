import { GiftIcon } from './Icons';

/** Shown to logged-out visitors on pages they may see. The top bar carries Login/Register. */
export function VisitorBanner() {
  return (
    <div className="visitor-banner" role="note">
      <GiftIcon size={18} />
      <p>Log in or register to gain full access to all features</p>
    </div>
  );
}
