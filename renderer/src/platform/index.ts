import type { Platform } from './types';
import { webPlatform } from './web';

/** Chosen once at start-up: the desktop preload's object when present, else the browser one. */
export const platform: Platform = window.giftlinkDesktop ?? webPlatform;

export type { ImageCache, ImageStoreName, NotificationPermissionState, Platform, StoredImage } from './types';
