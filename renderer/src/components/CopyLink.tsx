import { useEffect, useId, useState } from 'react';
import { COPY_FAILED, COPY_OK } from '../../../api/contract/texts';
import { CheckIcon, CopyIcon } from './Icons';

export { COPY_FAILED, COPY_OK };

export async function writeClipboard(text: string): Promise<void> {
  if (navigator.clipboard?.writeText) {
    await navigator.clipboard.writeText(text);
    return;
  }
  // Older engines and plain-http pages: a hidden textarea and the copy command.
  const area = document.createElement('textarea');
  area.value = text;
  area.setAttribute('readonly', '');
  area.style.position = 'fixed';
  area.style.opacity = '0';
  document.body.append(area);
  area.select();
  const ok = document.execCommand('copy');
  area.remove();
  if (!ok) throw new Error('copy refused');
}

/**
 * Copies text and remembers how it went for 3 s (PRODUCT.md: the copy notice lasts 3000 ms):
 * `result.ok` picks COPY_OK or COPY_FAILED.
 */
export function useCopy(): [{ ok: boolean; at: number } | null, (text: string) => Promise<void>] {
  const [result, setResult] = useState<{ ok: boolean; at: number } | null>(null);

  useEffect(() => {
    if (!result) return;
    const timer = window.setTimeout(() => setResult(null), 3000);
    return () => window.clearTimeout(timer);
  }, [result]);

  async function copy(text: string) {
    try {
      await writeClipboard(text);
      setResult({ ok: true, at: Date.now() });
    } catch {
      setResult({ ok: false, at: Date.now() });
    }
  }
  return [result, copy];
}

/** A read-only link address with a copy button and the spec's copy messages. */
export function CopyLink({ url, label = 'Your link' }: { url: string; label?: string }) {
  const inputId = useId();
  const [result, copyText] = useCopy();
  const copy = () => copyText(url);

  return (
    <div className="copy-link">
      <label htmlFor={inputId} className="field-label">
        {label}
      </label>
      <div className="copy-link__row">
        <input id={inputId} className="input copy-link__input" readOnly value={url} onFocus={(event) => event.currentTarget.select()} />
        <button type="button" className="btn btn--primary" onClick={() => void copy()}>
          {result?.ok ? <CheckIcon size={18} /> : <CopyIcon size={18} />}
          Copy link
        </button>
      </div>
      <p className={result && !result.ok ? 'copy-link__status is-error' : 'copy-link__status'} role="status" aria-live="polite">
        {result ? (result.ok ? COPY_OK : COPY_FAILED) : ''}
      </p>
    </div>
  );
}
