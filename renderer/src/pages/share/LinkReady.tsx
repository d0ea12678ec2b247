import { Link } from 'react-router-dom';
import type { LinkView } from '../../api/types';
import { CheckIcon } from '../../components/Icons';
import { ShareButton } from '../../components/share/ShareButton';
import { linkPath, linkSentence } from '../../linkText';

/** After Create: the new link, 'How to Share the Link' open over it (its address is the modal's first line), and a way to open it. */
export function LinkReady({ link }: { link: LinkView }) {
  return (
    <div className="share">
      <header className="page-header">
        <h1>Your link is ready</h1>
        <p>Share it anywhere: Instagram, X, Messages…</p>
      </header>
      <section className="card share__done" aria-labelledby="share-done-title">
        <div className="share__done-icon">
          <CheckIcon size={28} />
        </div>
        <h2 id="share-done-title">{linkSentence(link, true)}</h2>
        <p className="muted">
          {link.details.giveorreceive === 'give'
            ? `${link.details.initialQuantity > 1 ? `${link.details.initialQuantity} people can use it. ` : ''}Unused links refund your balance after 24 hours.`
            : link.progress
              ? 'Friends can chip in together until the gifts reach it. It stays open for 24 hours.'
              : 'It stays open for 24 hours, or until someone gives it.'}
        </p>
        <ShareButton subject={{ kind: 'link', link }} label="Share your link" initiallyOpen />
        <Link className="btn btn--soft" to={linkPath(link.creatorUsername)}>
          Open your link
        </Link>
      </section>
    </div>
  );
}
