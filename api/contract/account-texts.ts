/** The words of the account's own screens (registration, Settings): kept out of the first load of a shared page. */

/** Settings → Payouts: the card saved when paying by card, and its removal. */
export const SAVED_CARD_TITLE = 'Saved card';
export const SAVED_CARD_INTRO = 'The card you saved when paying by card. Removing it deletes it at the payment provider too.';
export const savedCardEnding = (last4: string) => `Card ending in ${last4}`;
export const SAVED_CARD_NONE = 'No card is saved. You can save one the next time you pay by card.';
export const SAVED_CARD_REMOVE = 'Remove';
export const SAVED_CARD_LOAD_FAILED = 'Your saved card could not be loaded.';
export const CARD_NOT_REMOVED = 'Your card could not be removed. Please try again.';
export const DATE_OF_BIRTH_LABEL = 'Date of birth';
export const DATE_OF_BIRTH_INVALID = 'Please enter a valid date of birth.';
export const UNDER_AGE = 'You must be 18 or older to use Giftlink.';
export const PAUSE_GIFTS = 'Pause gifts';
export const PAUSE_GIFTS_HINT = "Nobody can give to your link or buy from your wishlist until you resume; your link's time stops too.";
export const GIFTS_PAUSED_SAVED = 'Saved: gifts are paused.';
export const GIFTS_RESUMED_SAVED = 'Saved: you are taking gifts again.';
