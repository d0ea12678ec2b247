import { EventEmitter } from 'node:events';
import type { App, WebContents } from 'electron';
import { describe, expect, it } from 'vitest';
import {
  appContentSecurityPolicy,
  hardenWebContents,
  installSecurity,
  isAllowedExternal,
  isAllowedNavigation,
  isAllowedPermission,
} from './security.js';

describe('desktop window rules', () => {
  it('opens only http(s) links externally', () => {
    expect(isAllowedExternal('https://example.com/x')).toBe(true);
    expect(isAllowedExternal('http://example.com')).toBe(true);
    for (const bad of ['file:///etc/passwd', 'javascript:alert(1)', 'smb://host/share', 'not a url', ''])
      expect(isAllowedExternal(bad), bad).toBe(false);
  });

  it('keeps navigation on the Giftlink site', () => {
    const site = 'https://giftlink.example';
    expect(isAllowedNavigation(site, 'https://giftlink.example/link/ana')).toBe(true);
    expect(isAllowedNavigation(site, 'https://giftlink.example.evil.com/')).toBe(false);
    expect(isAllowedNavigation(site, 'http://giftlink.example/')).toBe(false);
    expect(isAllowedNavigation(site, 'garbage')).toBe(false);
  });

  it('keeps navigation on app://giftlink, though custom schemes all have the origin "null"', () => {
    expect(isAllowedNavigation('app://giftlink', 'app://giftlink/messages/1')).toBe(true);
    for (const bad of ['app://evil/', 'other://giftlink/', 'file:///etc/passwd', 'https://giftlink/', 'data:text/html,x', 'about:blank'])
      expect(isAllowedNavigation('app://giftlink', bad), bad).toBe(false);
  });

  it('refuses every permission but notifications', () => {
    expect(isAllowedPermission('notifications')).toBe(true);
    for (const p of ['media', 'geolocation', 'clipboard-read', 'openExternal', 'fullscreen', 'unknown'])
      expect(isAllowedPermission(p), p).toBe(false);
  });

  it('lets the app:// pages connect to the API origin only', () => {
    const csp = appContentSecurityPolicy({ http: 'https://api.giftlink.example', ws: 'wss://api.giftlink.example' });
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("connect-src 'self' https://api.giftlink.example wss://api.giftlink.example");
    expect(csp).toContain("img-src 'self' https://api.giftlink.example blob: data:");
    expect(csp).toMatch(/img-src [^;]*https:\/\/i\.ebayimg\.com/);
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain('unsafe-eval');
    expect(csp).toContain("object-src 'none'");
    // Stripe Elements, for the subscription page's card form, and nothing else from outside.
    expect(csp).toContain("script-src 'self' https://js.stripe.com https://*.js.stripe.com");
    expect(csp).toContain('frame-src https://js.stripe.com https://*.js.stripe.com https://hooks.stripe.com;');
    expect(csp).toMatch(/connect-src [^;]* https:\/\/api\.stripe\.com/);
  });
});

type PermissionRequest = (contents: unknown, permission: string, callback: (granted: boolean) => void) => void;
type PermissionCheck = (contents: unknown, permission: string) => boolean;

/** A fake of the parts of Electron's WebContents the handler uses: events, the window-open handler, the session's permission handlers. */
class FakeWebContents extends EventEmitter {
  openHandler: ((details: { url: string }) => { action: string }) | null = null;
  permissionRequest: PermissionRequest | null = null;
  permissionCheck: PermissionCheck | null = null;
  session = {
    setPermissionRequestHandler: (handler: PermissionRequest) => void (this.permissionRequest = handler),
    setPermissionCheckHandler: (handler: PermissionCheck) => void (this.permissionCheck = handler),
  };
  setWindowOpenHandler(handler: (details: { url: string }) => { action: string }) {
    this.openHandler = handler;
  }
  /** Emits a navigation-like event; true when the handler let it through. */
  navigate(event: string, url: string): boolean {
    let prevented = false;
    this.emit(event, { url, preventDefault: () => (prevented = true) }, url);
    return !prevented;
  }
}

function harden() {
  const opened: string[] = [];
  const app = new EventEmitter();
  installSecurity(app as unknown as Pick<App, 'on'>, {
    shell: { openExternal: async (url) => void opened.push(url) },
    appUrl: 'app://giftlink',
    log: () => {},
  });
  const contents = new FakeWebContents();
  app.emit('web-contents-created', {}, contents);
  return { contents, opened };
}

describe('the web-contents-created handler', () => {
  it('denies every new window and hands only http(s) links to the system browser', () => {
    const { contents, opened } = harden();
    for (const url of ['https://stripe.com/x', 'http://example.com', 'file:///etc/passwd', 'javascript:alert(1)', 'app://giftlink/other'])
      expect(contents.openHandler?.({ url })).toEqual({ action: 'deny' });
    expect(opened).toEqual(['https://stripe.com/x', 'http://example.com']);
  });

  it.each(['will-navigate', 'will-redirect', 'will-frame-navigate'])('%s stays on app://giftlink', (event) => {
    const { contents } = harden();
    expect(contents.navigate(event, 'app://giftlink/messages/1')).toBe(true);
    for (const url of ['https://evil.example/', 'file:///etc/passwd', 'app://evil/', 'http://localhost:3000/'])
      expect(contents.navigate(event, url), url).toBe(false);
  });

  it('blocks <webview>', () => {
    const { contents } = harden();
    expect(contents.navigate('will-attach-webview', 'app://giftlink/')).toBe(false);
  });

  it('grants notifications and refuses every other permission', () => {
    const { contents } = harden();
    const answers: Record<string, boolean> = {};
    for (const permission of ['notifications', 'media', 'geolocation', 'clipboard-read'])
      contents.permissionRequest?.(contents, permission, (granted) => (answers[permission] = granted));
    expect(answers).toEqual({ notifications: true, media: false, geolocation: false, 'clipboard-read': false });
    expect(contents.permissionCheck?.(contents, 'notifications')).toBe(true);
    expect(contents.permissionCheck?.(contents, 'media')).toBe(false);
  });

  it('hardens a web contents passed directly too', () => {
    const contents = new FakeWebContents();
    hardenWebContents(contents as unknown as WebContents, { shell: { openExternal: async () => {} }, appUrl: 'app://giftlink' });
    expect(contents.listenerCount('will-navigate')).toBe(1);
  });
});
