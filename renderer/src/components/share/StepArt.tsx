import { useId, type ReactNode } from 'react';
import type { ShareTarget } from '../../../../api/contract/share';

/**
 * The step illustrations of the share flows, drawn here (no outside host): a phone or a chat in
 * the app's palette, the share image in the chosen template's colours.
 */
const INK = '#1c1632';
const LINE = '#e5e1f0';
const SOFT = '#f1eff8';
const BRAND = '#6a4ce0';
const IG = ['#f58529', '#dd2a7b', '#8134af'];
const SMS = '#1f8bff';

function Phone({ children, x = 80 }: { children?: ReactNode; x?: number }) {
  return (
    <g>
      <rect x={x} y="6" width="80" height="150" rx="14" fill="#fff" stroke={LINE} strokeWidth="3" />
      <rect x={x + 30} y="12" width="20" height="4" rx="2" fill={LINE} />
      {children}
    </g>
  );
}

/** The share image inside a phone: a story-shaped card in the template's gradient. */
function Story({ fill, x = 88 }: { fill: string; x?: number }) {
  return (
    <g>
      <rect x={x} y="22" width="64" height="112" rx="8" fill={fill} />
      <circle cx={x + 32} cy="56" r="12" fill="#fff" opacity=".9" />
      <rect x={x + 14} y="78" width="36" height="6" rx="3" fill="#fff" opacity=".9" />
      <rect x={x + 20} y="90" width="24" height="5" rx="2.5" fill="#fff" opacity=".6" />
    </g>
  );
}

function Bubble({ x, y, w, fill, text }: { x: number; y: number; w: number; fill: string; text?: string }) {
  return (
    <g>
      <rect x={x} y={y} width={w} height="22" rx="11" fill={fill} />
      {text ? (
        <text x={x + w / 2} y={y + 15} textAnchor="middle" fontSize="10" fontWeight="600" fill="#fff" fontFamily="system-ui, sans-serif">
          {text}
        </text>
      ) : null}
    </g>
  );
}

function art(target: ShareTarget, step: number, grad: string, igGrad: string): ReactNode {
  if (target === 'instagram') {
    if (step === 1)
      return (
        <>
          <Phone>
            <Story fill={grad} />
          </Phone>
          <circle cx="172" cy="128" r="18" fill={BRAND} />
          <path d="M172 118v16m-7-7 7 7 7-7" stroke="#fff" strokeWidth="3" fill="none" strokeLinecap="round" strokeLinejoin="round" />
        </>
      );
    if (step === 2)
      return (
        <>
          <rect x="30" y="56" width="150" height="36" rx="18" fill="#fff" stroke={LINE} strokeWidth="3" />
          <path
            d="M50 74h10m-4-6-4 0a6 6 0 0 0 0 12h4m8-12h4a6 6 0 0 1 0 12h-4"
            stroke={BRAND}
            strokeWidth="2.5"
            fill="none"
            strokeLinecap="round"
          />
          <rect x="78" y="70" width="84" height="8" rx="4" fill={LINE} />
          <rect x="150" y="44" width="56" height="60" rx="10" fill={BRAND} />
          <rect x="163" y="58" width="22" height="28" rx="4" fill="none" stroke="#fff" strokeWidth="3" />
          <rect x="171" y="52" width="22" height="28" rx="4" fill={BRAND} stroke="#fff" strokeWidth="3" />
        </>
      );
    if (step === 3)
      return (
        <Phone>
          <Story fill={grad} />
          <rect x="96" y="104" width="48" height="18" rx="9" fill="#fff" />
          <path d="M103 113h6" stroke={IG[1]} strokeWidth="2.5" strokeLinecap="round" />
          <rect x="112" y="110" width="26" height="6" rx="3" fill={IG[1]} opacity=".8" />
        </Phone>
      );
    return (
      <>
        <Phone>
          <Story fill={grad} />
        </Phone>
        <circle cx="180" cy="120" r="22" fill="none" stroke={igGrad} strokeWidth="4" />
        <circle cx="180" cy="120" r="15" fill={SOFT} />
        <path d="M172 120h14m-5-6 6 6-6 6" stroke={INK} strokeWidth="2.5" fill="none" strokeLinecap="round" strokeLinejoin="round" />
      </>
    );
  }
  if (target === 'twitter') {
    if (step === 1)
      return (
        <>
          <rect x="30" y="10" width="180" height="140" rx="14" fill="#fff" stroke={LINE} strokeWidth="3" />
          <circle cx="52" cy="34" r="11" fill={BRAND} />
          <rect x="70" y="26" width="60" height="7" rx="3.5" fill={INK} />
          <rect x="70" y="38" width="40" height="6" rx="3" fill={LINE} />
          <rect x="44" y="54" width="150" height="6" rx="3" fill={LINE} />
          <rect x="44" y="66" width="110" height="6" rx="3" fill={LINE} />
          <rect x="44" y="82" width="152" height="56" rx="10" fill={grad} />
          <circle cx="70" cy="110" r="10" fill="#fff" opacity=".9" />
          <rect x="88" y="104" width="70" height="6" rx="3" fill="#fff" opacity=".9" />
        </>
      );
    return (
      <>
        <rect x="30" y="28" width="180" height="70" rx="14" fill="#fff" stroke={LINE} strokeWidth="3" />
        <rect x="46" y="46" width="120" height="7" rx="3.5" fill={LINE} />
        <rect x="46" y="60" width="90" height="7" rx="3.5" fill={LINE} />
        <rect x="130" y="110" width="80" height="32" rx="16" fill={INK} />
        <text x="170" y="131" textAnchor="middle" fontSize="13" fontWeight="700" fill="#fff" fontFamily="system-ui, sans-serif">
          Post
        </text>
        <path d="M44 112l20 26m0-26-20 26" stroke={INK} strokeWidth="4" strokeLinecap="round" />
      </>
    );
  }
  if (step === 1)
    return (
      <>
        <Bubble x={30} y={22} w={110} fill={LINE} />
        <Bubble x={96} y={56} w={120} fill={SMS} text="Open my Giftlink!" />
        <rect x="96" y="84" width="120" height="44" rx="12" fill={grad} />
        <circle cx="116" cy="106" r="9" fill="#fff" opacity=".9" />
        <rect x="132" y="101" width="64" height="6" rx="3" fill="#fff" opacity=".9" />
      </>
    );
  return (
    <Phone>
      <Bubble x={92} y={40} w={60} fill={SMS} />
      <rect x="88" y="126" width="50" height="18" rx="9" fill={SOFT} />
      <circle cx="148" cy="135" r="9" fill={SMS} />
      <path d="M148 140v-10m-4 4 4-4 4 4" stroke="#fff" strokeWidth="2" fill="none" strokeLinecap="round" strokeLinejoin="round" />
    </Phone>
  );
}

export function StepArt({ target, step, colors }: { target: ShareTarget; step: number; colors: [string, string] }) {
  const id = useId().replace(/:/g, '');
  return (
    <svg className="share-step__art" viewBox="0 0 240 160" aria-hidden="true" focusable="false">
      <defs>
        <linearGradient id={`${id}-t`} x1="0" y1="0" x2="1" y2="1">
          <stop offset="0" stopColor={colors[0]} />
          <stop offset="1" stopColor={colors[1]} />
        </linearGradient>
        <linearGradient id={`${id}-ig`} x1="0" y1="1" x2="1" y2="0">
          {IG.map((c, i) => (
            <stop key={c} offset={i / 2} stopColor={c} />
          ))}
        </linearGradient>
      </defs>
      <rect width="240" height="160" rx="18" fill={SOFT} />
      {art(target, step, `url(#${id}-t)`, `url(#${id}-ig)`)}
    </svg>
  );
}
