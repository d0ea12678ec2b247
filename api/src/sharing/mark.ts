/** The Giftlink mark (the site's icon, renderer/public/favicon.svg) and the default avatar, as data URIs. */

const svgUri = (svg: string) => `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`;

/** The gift mark on a tile: a brand gradient with a white gift, or a white tile with a `stroke` gift. */
export function markUri(from: string, to: string, stroke = '#ffffff'): string {
  return svgUri(`<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64" width="64" height="64">
  <defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${from}"/><stop offset="1" stop-color="${to}"/></linearGradient></defs>
  <rect width="64" height="64" rx="16" fill="url(#g)"/>
  <g fill="none" stroke="${stroke}" stroke-width="4" stroke-linecap="round" stroke-linejoin="round">
    <rect x="14" y="25" width="36" height="9" rx="2"/>
    <path d="M18 34v14a2 2 0 0 0 2 2h24a2 2 0 0 0 2-2V34M32 25v25"/>
    <path d="M32 25s-3-9-9-7.6c-4.4 1-3 7.6 2.6 7.6Zm0 0s3-9 9-7.6c4.4 1 3 7.6-2.6 7.6Z"/>
  </g>
</svg>`);
}

/** A bare gift (no tile) in `colour`, for an empty picture frame. */
export function giftUri(colour: string): string {
  return svgUri(`<svg xmlns="http://www.w3.org/2000/svg" viewBox="12 12 40 42" width="80" height="84">
  <g fill="none" stroke="${colour}" stroke-width="3" stroke-linecap="round" stroke-linejoin="round">
    <rect x="14" y="25" width="36" height="9" rx="2"/>
    <path d="M18 34v14a2 2 0 0 0 2 2h24a2 2 0 0 0 2-2V34M32 25v25"/>
    <path d="M32 25s-3-9-9-7.6c-4.4 1-3 7.6 2.6 7.6Zm0 0s3-9 9-7.6c4.4 1 3 7.6-2.6 7.6Z"/>
  </g>
</svg>`);
}

/** The default profile picture (renderer/src/assets/default-avatar.svg). */
export const DEFAULT_AVATAR = svgUri(`<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 256 256" width="256" height="256">
  <defs>
    <linearGradient id="bg" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#ede7ff"/><stop offset="1" stop-color="#ffe1ea"/></linearGradient>
    <linearGradient id="fg" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#8b6cff"/><stop offset="1" stop-color="#6a4ce0"/></linearGradient>
  </defs>
  <rect width="256" height="256" fill="url(#bg)"/>
  <circle cx="128" cy="104" r="46" fill="url(#fg)" opacity=".9"/>
  <path d="M40 256c0-56 39-92 88-92s88 36 88 92Z" fill="url(#fg)" opacity=".9"/>
</svg>`);
