/**
 * The terms and the privacy notice, in the product's own words: shown at /terms and /privacy, by
 * the website and by the server's first paint alike. Plain data, safe in any bundle.
 */

export type LegalKind = 'terms' | 'privacy';

export interface LegalSection {
  heading: string;
  paragraphs: readonly string[];
}

export interface LegalDoc {
  kind: LegalKind;
  title: string;
  /** When the words last changed, as shown under the title. */
  updated: string;
  sections: readonly LegalSection[];
}

export { LEGAL_PATHS } from './legal-paths.js';

/** Where people write about their data or these terms: an address at the product's own host. */
export const contactAddress = (host: string): string => `privacy@${host.replace(/^www\./, '')}`;

const UPDATED = '7 December 2026';

/** The page of `kind`, naming the address at `host` to write to. */
export function legalDoc(kind: LegalKind, host: string): LegalDoc {
  const write = `Write to ${contactAddress(host)}.`;
  if (kind === 'terms')
    return {
      kind,
      title: 'Terms of use',
      updated: UPDATED,
      sections: [
        {
          heading: 'Who can use Giftlink',
          paragraphs: [
            'You must be 18 or older. Registration asks for your date of birth and refuses anyone younger.',
            'You join with an invite or through a link someone shared. One account per person.',
          ],
        },
        {
          heading: 'Money',
          paragraphs: [
            'Your balance is money you added or received. Money you add by card can be given at once and withdrawn once it is no longer on hold; the money page says when.',
            'A gift cannot be undone by the giver. A recipient can return a gift of money from its thread. If a card payment is disputed, the money it paid for is taken back from where it went, as far as the rules of the hold allow.',
            "Withdrawals go to the bank account you set up with Stripe. Stripe's own terms apply to it.",
          ],
        },
        {
          heading: 'The weekly subscription',
          paragraphs: [
            'The subscription costs the price shown beside the pay button and renews every week until you cancel. We remind you the day before each renewal. You can cancel at any time from Manage Subscription; it then ends at the end of the week already paid.',
          ],
        },
        {
          heading: 'How to behave',
          paragraphs: [
            'No harassment, threats, hate or sexual content involving minors. Messages with slurs are refused. Anyone can block a person or report a message; we suspend accounts that break these rules.',
            'You can pause your link and wishlist at any time from Settings.',
          ],
        },
        { heading: 'Questions', paragraphs: [write] },
      ],
    };
  return {
    kind,
    title: 'Privacy',
    updated: UPDATED,
    sections: [
      {
        heading: 'What we keep',
        paragraphs: [
          'Your email address, username, password (as a hash we cannot reverse), profile, pictures, links, wishlist, messages and the money you moved.',
          'From your date of birth, only that you are an adult and the year.',
          "Your sessions (the device and when it was last seen), to show you where you are signed in and to let you sign them out. Card details go to Stripe; we keep the card's brand and last four digits.",
          'Who opened a link (an account, a random id the browser keeps, or an address only as a keyed hash), to count its views and visitors. We store nothing for analytics when your browser sends Global Privacy Control.',
        ],
      },
      {
        heading: 'How long',
        paragraphs: [
          'While your account is open. When you delete it, your profile, pictures, links, wishlist, address, invites, sessions, saved card and push devices go, and the messages you wrote by name read "Deleted message".',
          'The record of money moved stays, because the law and honest accounts need it; your username is freed after 30 days.',
        ],
      },
      {
        heading: 'Anonymous gifts',
        paragraphs: [
          'When you give anonymously, the person you give to does not see your name, picture or account in the gift, its thread, their notifications, emails or exports, and what you do under your own name does not change what they see in the anonymous thread.',
          'Anonymity does not cover everything: what you write can give you away, and we can see who gave, to keep money safe and to act on reports and the law.',
        ],
      },
      {
        heading: 'Your choices',
        paragraphs: [
          'Download all your data from Settings. Turn each kind of email or push notification off in Settings, or from the link in any email. Delete your account from Settings.',
          write,
        ],
      },
    ],
  };
}
