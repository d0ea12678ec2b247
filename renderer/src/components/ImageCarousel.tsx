import { useEffect, useState } from 'react';
import { CachedImage } from './CachedImage';
import { ChevronLeftIcon, ChevronRightIcon, PackageIcon } from './Icons';
import './ImageCarousel.css';

interface ImageCarouselProps {
  images: readonly string[];
  /** What the pictures show (the item's name), for their alternative text. */
  label: string;
  /** Left and right arrow keys anywhere on the page turn the pictures (inside a modal). */
  keyboard?: boolean;
}

function isTyping(target: EventTarget | null): boolean {
  return target instanceof HTMLElement && (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName));
}

/** One picture at a time, with previous/next buttons, dots and the arrow keys. */
export function ImageCarousel({ images, label, keyboard = true }: ImageCarouselProps) {
  const [index, setIndex] = useState(0);
  const count = images.length;
  const current = count ? Math.min(index, count - 1) : 0;

  useEffect(() => {
    if (!keyboard || count < 2) return;
    function onKeyDown(event: KeyboardEvent) {
      if (event.defaultPrevented || isTyping(event.target) || event.altKey || event.metaKey || event.ctrlKey) return;
      if (event.key === 'ArrowLeft') {
        event.preventDefault();
        setIndex((i) => (Math.min(i, count - 1) - 1 + count) % count);
      } else if (event.key === 'ArrowRight') {
        event.preventDefault();
        setIndex((i) => (Math.min(i, count - 1) + 1) % count);
      }
    }
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, [keyboard, count]);

  if (count === 0) {
    return (
      <div className="carousel carousel--empty" aria-hidden="true">
        <PackageIcon size={48} />
      </div>
    );
  }

  return (
    <div className="carousel" role="group" aria-roledescription="carousel" aria-label={`Pictures of ${label}`}>
      <div className="carousel__frame">
        {images.map((url, i) => (
          // Every picture is in the page (so the next one is already loaded); only the current one shows.
          <CachedImage
            key={`${url}-${i}`}
            className={i === current ? 'carousel__image is-current' : 'carousel__image'}
            src={url}
            alt={count > 1 ? `${label}, picture ${i + 1} of ${count}` : label}
            aria-hidden={i === current ? undefined : true}
          />
        ))}
        {count > 1 ? (
          <>
            <button
              type="button"
              className="carousel__nav carousel__nav--prev"
              aria-label="Previous picture"
              onClick={() => setIndex((current - 1 + count) % count)}
            >
              <ChevronLeftIcon size={22} />
            </button>
            <button
              type="button"
              className="carousel__nav carousel__nav--next"
              aria-label="Next picture"
              onClick={() => setIndex((current + 1) % count)}
            >
              <ChevronRightIcon size={22} />
            </button>
            <span className="carousel__count" aria-hidden="true">
              {current + 1} / {count}
            </span>
          </>
        ) : null}
      </div>
      {count > 1 ? (
        <div className="carousel__dots">
          {images.map((url, i) => (
            <button
              key={`${url}-${i}`}
              type="button"
              className={i === current ? 'carousel__dot is-current' : 'carousel__dot'}
              aria-label={`Picture ${i + 1} of ${count}`}
              aria-current={i === current ? 'true' : undefined}
              onClick={() => setIndex(i)}
            />
          ))}
        </div>
      ) : null}
    </div>
  );
}
