/**
 * The texts of Settings → Notifications' devices (renderer/src/pages/settings/PushDevices.tsx).
 * Apart from texts.ts, which a visitor's first load carries, so that load does not grow by them.
 */
export const PUSH_TURN_ON = 'Turn on notifications on this device';
export const PUSH_TURNING_ON = 'Turning on…';
export const PUSH_DENIED =
  'Notifications are blocked for Giftlink in this browser. Allow them in the browser’s site settings, then try again.';
export const PUSH_UNSUPPORTED = 'This browser cannot show Giftlink notifications.';
export const PUSH_FAILED = 'Notifications could not be turned on. Please try again.';
export const PUSH_DEVICES = 'Devices with notifications';
export const PUSH_NO_DEVICES = 'No device gets notifications yet.';
export const PUSH_REMOVE = 'Remove';
export const PUSH_THIS_DEVICE = 'This device';
