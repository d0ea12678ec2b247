import type { ImgHTMLAttributes } from 'react';
import { useCachedImageUrl } from '../state/imageCache';

type CachedImageProps = Omit<ImgHTMLAttributes<HTMLImageElement>, 'src'> & { src: string };

/** An <img> that shows the session's cached copy of `src` when there is one. */
export function CachedImage({ src, alt = '', ...rest }: CachedImageProps) {
  const url = useCachedImageUrl(src);
  return <img src={url} alt={alt} {...rest} />;
}
