import type { CSSProperties } from 'react';

interface SpinnerProps {
  label?: string;
  size?: number;
  light?: boolean;
}

export function Spinner({ label = 'Loading', size, light = false }: SpinnerProps) {
  return (
    <span role="status" aria-live="polite" className="spinner-wrap">
      <span
        className={light ? 'spinner spinner--light' : 'spinner'}
        style={size ? ({ '--spinner-size': `${size}px` } as CSSProperties) : undefined}
        aria-hidden="true"
      />
      <span className="visually-hidden">{label}</span>
    </span>
  );
}

/** Fills the page (or the content area) while something loads. */
export function PageSpinner({ full = false, label }: { full?: boolean; label?: string }) {
  return (
    <div className={full ? 'spinner-page spinner-page--full' : 'spinner-page'}>
      <Spinner label={label} size={36} />
    </div>
  );
}
