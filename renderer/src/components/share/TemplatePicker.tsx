import { useId, useState } from 'react';
import { SHARE_TEMPLATES, SHARE_TEMPLATE_NAMES, type ShareFormat, type ShareTemplate } from '../../../../api/contract/share';
import { ArrowDownIcon, ChevronLeftIcon, ChevronRightIcon, RefreshIcon } from '../Icons';
import { Spinner } from '../Spinner';
import type { useShareImage } from './useShareImage';

/** The swatch of each template (the rendered image is the server's). */
export const TEMPLATE_COLORS: Record<ShareTemplate, [string, string]> = {
  standard: ['#6a4ce0', '#ff6b8f'],
  'purple-gradient': ['#5b21b6', '#c084fc'],
  'green-gradient': ['#047857', '#6ee7b7'],
  'orange-gradient': ['#ea580c', '#fcd34d'],
  'blue-gradient': ['#1d4ed8', '#67e8f9'],
};

interface TemplatePickerProps {
  template: ShareTemplate;
  onTemplate: (template: ShareTemplate) => void;
  format: ShareFormat;
  image: ReturnType<typeof useShareImage>;
  onDownload: () => Promise<void>;
}

/** The template carousel: the server's image in the chosen style, the five styles, and Download. */
export function TemplatePicker({ template, onTemplate, format, image, onDownload }: TemplatePickerProps) {
  const name = useId();
  const [saving, setSaving] = useState(false);
  const [saveFailed, setSaveFailed] = useState(false);
  const index = SHARE_TEMPLATES.indexOf(template);
  const step = (by: number) => onTemplate(SHARE_TEMPLATES[(index + by + SHARE_TEMPLATES.length) % SHARE_TEMPLATES.length]);
  const label = SHARE_TEMPLATE_NAMES[template];

  async function download() {
    setSaving(true);
    setSaveFailed(false);
    try {
      await onDownload();
    } catch {
      setSaveFailed(true);
    } finally {
      setSaving(false);
    }
  }

  return (
    <section className="share-preview" aria-label="Share image">
      <div className="share-preview__stage">
        <button
          type="button"
          className="btn btn--icon btn--ghost share-preview__arrow"
          aria-label="Previous style"
          onClick={() => step(-1)}
        >
          <ChevronLeftIcon size={20} />
        </button>
        <figure className={`share-preview__frame share-preview__frame--${format}`} aria-busy={image.isPending}>
          {image.data ? (
            <img
              key={image.data.url}
              src={image.data.objectUrl}
              alt={`Your share image, ${label} style`}
              className={image.isFetching ? 'share-preview__image is-stale' : 'share-preview__image'}
            />
          ) : image.isError ? (
            <div className="share-preview__state" role="alert">
              <p>The image could not be made.</p>
              <button type="button" className="btn btn--soft btn--sm" onClick={() => void image.refetch()}>
                <RefreshIcon size={16} /> Try again
              </button>
            </div>
          ) : (
            <div className="share-preview__state">
              <Spinner size={28} label="Making your image" />
              <p className="muted small">Making your image…</p>
            </div>
          )}
        </figure>
        <button type="button" className="btn btn--icon btn--ghost share-preview__arrow" aria-label="Next style" onClick={() => step(1)}>
          <ChevronRightIcon size={20} />
        </button>
      </div>

      <fieldset className="share-preview__styles">
        <legend className="visually-hidden">Image style</legend>
        {SHARE_TEMPLATES.map((t) => {
          const [from, to] = TEMPLATE_COLORS[t];
          return (
            <label key={t} className="share-swatch" title={SHARE_TEMPLATE_NAMES[t]}>
              <input type="radio" name={name} value={t} checked={t === template} onChange={() => onTemplate(t)} />
              <span className="share-swatch__dot" style={{ background: `linear-gradient(135deg, ${from}, ${to})` }} aria-hidden="true" />
              <span className="share-swatch__name">{SHARE_TEMPLATE_NAMES[t]}</span>
            </label>
          );
        })}
      </fieldset>

      <button type="button" className="btn btn--soft btn--block" disabled={!image.data || saving} onClick={() => void download()}>
        {saving ? <Spinner size={16} label="Saving the image" /> : <ArrowDownIcon size={18} />}
        Download
      </button>
      {saveFailed ? (
        <p className="field-error" role="alert">
          The image could not be saved. Please try again.
        </p>
      ) : null}
    </section>
  );
}
