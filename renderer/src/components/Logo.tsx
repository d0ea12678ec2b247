export function LogoMark({ size = 32 }: { size?: number }) {
  return (
    <svg width={size} height={size} viewBox="0 0 64 64" aria-hidden="true" focusable="false">
      <defs>
        <linearGradient id="giftlink-logo-gradient" x1="0" y1="0" x2="1" y2="1">
          <stop offset="0" stopColor="#6a4ce0" />
          <stop offset="1" stopColor="#ff6b8f" />
        </linearGradient>
      </defs>
      <rect width="64" height="64" rx="16" fill="url(#giftlink-logo-gradient)" />
      <g fill="none" stroke="#fff" strokeWidth="4" strokeLinecap="round" strokeLinejoin="round">
        <rect x="14" y="25" width="36" height="9" rx="2" />
        <path d="M18 34v14a2 2 0 0 0 2 2h24a2 2 0 0 0 2-2V34M32 25v25" />
        <path d="M32 25s-3-9-9-7.6c-4.4 1-3 7.6 2.6 7.6Zm0 0s3-9 9-7.6c4.4 1 3 7.6-2.6 7.6Z" />
      </g>
    </svg>
  );
}

export function Wordmark() {
  return <span className="wordmark">Giftlink</span>;
}
