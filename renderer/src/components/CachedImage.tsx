import type { ImgHTMLAttributes } from 'react';
import { useCachedImageUrl } from '../state/imageCache';

type CachedImageProps = Omit<ImgHTMLAttributes<HTMLImageElement>, 'src'> & {
  src: string;
  /** What to load when nothing is cached (a small copy of `src`); `src` itself by default. */
  uncached?: string;
};

/** An <img> that shows the session's cached copy of `src` when there is one. */
export function CachedImage({ src, uncached, alt = '', ...rest }: CachedImageProps) {
  const url = useCachedImageUrl(src);
  return <img src={url === src && uncached ? uncached : url} alt={alt} {...rest} />;
}
