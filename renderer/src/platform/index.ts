import { desktopPlatformFrom } from '../../../electron/preload/platform';
import type { Platform } from './types';
import { webPlatform } from './web';

/**
 * Chosen once at start-up: in the desktop app, the platform built on the preload's IPC bridge
 * (`window.giftlinkDesktopIpc`; Blobs do not cross contextBridge, so the page builds it), or a
 * ready one a test injects as `window.giftlinkDesktop`; else the browser's.
 */
function choosePlatform(): Platform {
  if (typeof window === 'undefined') return webPlatform;
  if (window.giftlinkDesktop) return window.giftlinkDesktop;
  if (window.giftlinkDesktopIpc) return desktopPlatformFrom(window.giftlinkDesktopIpc);
  return webPlatform;
}

export const platform: Platform = choosePlatform();

export type { ImageStoreName, NotificationPermissionState, Platform, StoredImage } from './types';
