// The desktop window's rules, kept free of the electron module so they are tested in Node.

/** Links the app may hand to the system browser: http(s) only, never file:, javascript: or custom schemes. */
export function isAllowedExternal(url: string): boolean {
  try {
    const { protocol } = new URL(url);
    return protocol === 'https:' || protocol === 'http:';
  } catch {
    return false;
  }
}

/** The window may only navigate within the Giftlink site it was opened on. */
export function isAllowedNavigation(site: string, url: string): boolean {
  try {
    return new URL(url).origin === new URL(site).origin;
  } catch {
    return false;
  }
}
