import { DESKTOP_DOWNLOAD_LINK } from '../../../api/contract/texts';
import { useUpgradeRequired } from '../api/upgrade';
import { platform } from '../platform';
import './UpgradeBanner.css';

/**
 * An installed desktop app older than the API supports (426 upgrade_required): the API's message
 * ('Please update Giftlink to keep using it.') with the download link, above every page.
 */
export function UpgradeBanner() {
  const upgrade = useUpgradeRequired();
  if (!upgrade) return null;
  const { message, downloadUrl } = upgrade;
  return (
    <div className="upgrade-banner" role="alert">
      <p className="upgrade-banner__message">{message}</p>
      {downloadUrl ? (
        <a
          className="btn btn--sm btn--primary upgrade-banner__download"
          href={downloadUrl}
          target="_blank"
          rel="noopener noreferrer"
          onClick={(event) => {
            event.preventDefault();
            void platform.openUrl(downloadUrl).catch(() => undefined);
          }}
        >
          {DESKTOP_DOWNLOAD_LINK}
        </a>
      ) : null}
    </div>
  );
}
