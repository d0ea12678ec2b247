import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { STORIES_ON_DESKTOP } from '../../../../api/contract/texts';
import {
  WISHLIST_SHARE_TEXT,
  linkShareText,
  shareImageFileName,
  shareImagePath,
  shareMessage,
  shareUrl,
  smsUrl,
  tweetIntentUrl,
  type ShareTarget,
  type ShareTemplate,
} from '../../../../api/contract/share';
import { logEvent } from '../../analytics';
import type { LinkView } from '../../api/types';
import { linkUrl } from '../../linkText';
import { onboardingIcon } from '../../onboardingImages';
import { platform } from '../../platform';
import { CachedImage } from '../CachedImage';
import { COPY_FAILED, COPY_OK, CopyLink, useCopy } from '../CopyLink';
import { Dialog } from '../Dialog';
import { CopyIcon } from '../Icons';
import { isPhone, openExternal, openSms, shareImageFile } from './device';
import { StepArt } from './StepArt';
import { TEMPLATE_COLORS, TemplatePicker } from './TemplatePicker';
import { TypedText } from './TypedText';
import { useCacheShareImage, useShareImage } from './useShareImage';
import './ShareModal.css';

/** What is being shared: the owner's link, or the owner's wishlist. */
export type ShareSubject = { kind: 'link'; link: LinkView } | { kind: 'wishlist'; username: string };

/** The wishlist's shareable address. */
export function wishlistUrl(username: string): string {
  return new URL(`/wishlist/${encodeURIComponent(username)}`, window.location.origin).toString();
}

const TARGETS: { id: ShareTarget; name: string }[] = [
  { id: 'instagram', name: 'Instagram' },
  { id: 'twitter', name: 'Twitter/X' },
  { id: 'messages', name: 'Messages' },
];

interface Step {
  title: string;
  text: string;
  /** What the step offers besides its words. */
  extra?: 'copy-link' | 'typed';
}

function stepsFor(target: ShareTarget, phone: boolean): Step[] {
  if (target === 'instagram') {
    return [
      { title: 'Pick a style and save the image', text: 'Choose a template and press Download. It is sized for a story.' },
      { title: 'Copy your link', text: 'You will paste it into a Link sticker on your story.', extra: 'copy-link' },
      { title: 'Add the image to your story', text: 'Open Instagram, start a story with the image and add a Link sticker with your link.' },
      {
        title: 'Post your story',
        text: phone ? 'Press Share! and choose Instagram Stories.' : 'Stories are posted from the Instagram app on your phone.',
      },
    ];
  }
  if (target === 'twitter') {
    return [
      { title: 'Your post', text: 'This text goes with your link. The image shows as the link’s card.', extra: 'typed' },
      { title: 'Post it on X', text: 'Press Share! to open X with the text and the link filled in.' },
    ];
  }
  return [
    { title: 'Your message', text: 'This text goes with your link. The image shows as the link’s preview.', extra: 'typed' },
    {
      title: 'Send it to your friends',
      text: phone
        ? 'Press Share! to open Messages with the text filled in.'
        : 'Press Share! to copy the message, then paste it into any chat.',
    },
  ];
}

/** 'How to Share the Link': three tabs of steps, the template carousel and Download. */
export function ShareModal({ subject, onClose }: { subject: ShareSubject; onClose: () => void }) {
  const [phone] = useState(isPhone);
  const [target, setTarget] = useState<ShareTarget>('instagram');
  const [step, setStep] = useState(1);
  const [template, setTemplate] = useState<ShareTemplate>('standard');
  const [notice, setNotice] = useState<{ ok: boolean; text: string } | null>(null);
  const [copyResult, copy] = useCopy();
  const tabs = useRef<Partial<Record<ShareTarget, HTMLButtonElement | null>>>({});
  const cacheImage = useCacheShareImage();

  const username = subject.kind === 'link' ? subject.link.creatorUsername : subject.username;
  const pageUrl = subject.kind === 'link' ? linkUrl(username) : wishlistUrl(username);
  const targetUrl = shareUrl(pageUrl, target);
  const text = subject.kind === 'link' ? linkShareText(subject.link.details) : WISHLIST_SHARE_TEXT;
  const format = target === 'instagram' ? 'story' : 'card';
  const image = useShareImage(shareImagePath(subject.kind, username, template, format));
  const fileName = shareImageFileName(subject.kind, username, template, format);
  const shown = image.data;

  // PRODUCT.md: the image is rendered and cached as the modal shows it ('shareImages', by username).
  useEffect(() => {
    if (shown) void cacheImage(username, shown);
  }, [cacheImage, username, shown]);

  const steps = stepsFor(target, phone);
  const current = steps[step - 1];
  const last = step === steps.length;
  const tabId = (t: ShareTarget) => `share-tab-${t}`;

  function choose(next: ShareTarget, focus = false) {
    setTarget(next);
    setStep(1);
    setNotice(null);
    if (focus) tabs.current[next]?.focus();
  }

  function onTabKey(event: KeyboardEvent<HTMLDivElement>) {
    const i = TARGETS.findIndex((t) => t.id === target);
    const to = { ArrowRight: i + 1, ArrowLeft: i - 1, Home: 0, End: TARGETS.length - 1 }[event.key];
    if (to === undefined) return;
    event.preventDefault();
    choose(TARGETS[(to + TARGETS.length) % TARGETS.length].id, true);
  }

  function logShare() {
    if (subject.kind !== 'link') return;
    const { giveorreceive, type, initialQuantity, totalCost, title, itemId } = subject.link.details;
    logEvent('linkShare', { giveorreceive, type, initialQuantity, totalCost, title, itemId });
  }

  async function download() {
    if (!image.data) return;
    await cacheImage(username, image.data);
    await platform.saveFile(fileName, image.data.blob);
  }

  async function share() {
    setNotice(null);
    if (target === 'twitter') {
      await openExternal(tweetIntentUrl(text, targetUrl));
      logShare();
      return;
    }
    if (target === 'messages') {
      if (phone) openSms(smsUrl(shareMessage(text, targetUrl)));
      else await copy(shareMessage(text, targetUrl));
      logShare();
      return;
    }
    if (!phone) {
      setNotice({ ok: false, text: STORIES_ON_DESKTOP });
      return;
    }
    if (!image.data) {
      setNotice({ ok: false, text: 'Your image is still being made. Try again in a moment.' });
      return;
    }
    const file = new File([image.data.blob], fileName, { type: 'image/png' });
    try {
      const result = await shareImageFile(file);
      if (result === 'cancelled') return;
      if (result === 'unsupported') {
        await platform.saveFile(fileName, image.data.blob);
        setNotice({ ok: true, text: 'The image was saved. Open Instagram and add it to your story.' });
      }
      logShare();
    } catch {
      setNotice({ ok: false, text: 'Could not share the image. Please download it and post it from Instagram.' });
    }
  }

  const copyNotice = copyResult ? { ok: copyResult.ok, text: copyResult.ok ? COPY_OK : COPY_FAILED } : null;
  const status = notice ?? copyNotice;

  return (
    <Dialog
      title="How to Share the Link"
      message={
        subject.kind === 'link' ? 'Share your link on Instagram, X or Messages.' : 'Share your wishlist on Instagram, X or Messages.'
      }
      className="dialog--share"
      onDismiss={onClose}
      body={
        <>
          <CopyLink url={pageUrl} label={subject.kind === 'link' ? 'Your link' : 'Your wishlist'} />
          <div className="share-tabs" role="tablist" aria-label="Share on" onKeyDown={onTabKey}>
            {TARGETS.map((t) => (
              <button
                key={t.id}
                ref={(el) => {
                  tabs.current[t.id] = el;
                }}
                id={tabId(t.id)}
                type="button"
                role="tab"
                className="share-tabs__tab"
                aria-selected={t.id === target}
                aria-controls="share-panel"
                tabIndex={t.id === target ? 0 : -1}
                data-autofocus={t.id === target ? true : undefined}
                onClick={() => choose(t.id)}
              >
                <CachedImage src={onboardingIcon(t.id)} alt="" width={22} height={22} />
                {t.name}
              </button>
            ))}
          </div>
          <div className="share-modal__grid">
            <div id="share-panel" role="tabpanel" aria-labelledby={tabId(target)} className="share-step">
              <ol className="share-step__dots" aria-label={`Step ${step} of ${steps.length}`}>
                {steps.map((s, i) => (
                  <li key={s.title} className={i + 1 === step ? 'is-current' : i + 1 < step ? 'is-done' : undefined} />
                ))}
              </ol>
              <StepArt target={target} step={step} colors={TEMPLATE_COLORS[template]} />
              <p className="share-step__count">
                Step {step} of {steps.length}
              </p>
              <h3 className="share-step__title">{current.title}</h3>
              <p className="share-step__text">{current.text}</p>
              {current.extra === 'typed' ? (
                <>
                  <TypedText key={`${target}|${text}`} text={text} link={targetUrl} />
                  <button
                    type="button"
                    className="btn btn--soft btn--sm share-step__copy"
                    onClick={() => void copy(shareMessage(text, targetUrl))}
                  >
                    <CopyIcon size={16} /> Copy text
                  </button>
                </>
              ) : null}
              {current.extra === 'copy-link' ? (
                <button type="button" className="btn btn--soft btn--sm share-step__copy" onClick={() => void copy(targetUrl)}>
                  <CopyIcon size={16} /> Copy link for Instagram
                </button>
              ) : null}
              <p className={status && !status.ok ? 'share-step__status is-error' : 'share-step__status'} role="status" aria-live="polite">
                {status?.text ?? ''}
              </p>
            </div>
            <TemplatePicker template={template} onTemplate={setTemplate} format={format} image={image} onDownload={download} />
          </div>
        </>
      }
    >
      <button type="button" className="btn btn--ghost" onClick={onClose}>
        Close
      </button>
      {step > 1 ? (
        <button type="button" className="btn btn--soft" onClick={() => (setStep(step - 1), setNotice(null))}>
          Back
        </button>
      ) : null}
      <button type="button" className="btn btn--primary" onClick={() => (last ? void share() : (setStep(step + 1), setNotice(null)))}>
        {last ? 'Share!' : 'Next Step'}
      </button>
    </Dialog>
  );
}
