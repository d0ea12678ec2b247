import { platform } from '../../platform';

interface UserAgentData {
  mobile?: boolean;
}

/**
 * A phone or tablet, where stories, the share sheet and `sms:` links exist. The desktop app and
 * desktop browsers are not, whatever the window's width.
 */
export function isPhone(): boolean {
  if (platform.kind === 'desktop' || typeof navigator === 'undefined') return false;
  const ua = navigator.userAgent;
  const data = (navigator as Navigator & { userAgentData?: UserAgentData }).userAgentData;
  // iPadOS Safari says it is a Mac: a Mac with a touch screen is an iPad.
  const iPad = /Macintosh/.test(ua) && navigator.maxTouchPoints > 1;
  return data?.mobile === true || iPad || /Android|iPhone|iPad|iPod|Mobile/i.test(ua);
}

export function prefersReducedMotion(): boolean {
  return typeof window !== 'undefined' && window.matchMedia?.('(prefers-reduced-motion: reduce)').matches === true;
}

export type WebShareResult = 'shared' | 'cancelled' | 'unsupported';

/**
 * Hands an image (and optionally a text) to the system share sheet, where the browser can share
 * files (`navigator.canShare({ files })`). Must run straight from a click: the file is ready beforehand.
 */
export async function shareImageFile(file: File, text?: string): Promise<WebShareResult> {
  if (typeof navigator.share !== 'function' || typeof navigator.canShare !== 'function') return 'unsupported';
  if (!navigator.canShare({ files: [file] })) return 'unsupported';
  try {
    await navigator.share(text ? { files: [file], text } : { files: [file] });
    return 'shared';
  } catch (err) {
    if (err instanceof DOMException && err.name === 'AbortError') return 'cancelled';
    throw err;
  }
}

/** Opens an http(s) page in a new tab (the desktop app's browser on the desktop). */
export async function openExternal(url: string): Promise<void> {
  if (typeof platform.openUrl === 'function') {
    await platform.openUrl(url);
    return;
  }
  window.open(url, '_blank', 'noopener,noreferrer');
}

/** `sms:` is no web page: the phone hands a followed `sms:` link to its Messages app. */
export function openSms(url: string): void {
  const a = document.createElement('a');
  a.href = url;
  a.rel = 'noopener';
  document.body.append(a);
  a.click();
  a.remove();
}
