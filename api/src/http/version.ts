import semver from 'semver';
import { DESKTOP_VERSION_HEADER, UPGRADE_REQUIRED, type UpgradeRequiredBody } from '../../contract/desktop.js';
import { DESKTOP_UPGRADE_REQUIRED } from '../../contract/texts.js';
import type { Config } from '../config.js';
import type { Middleware } from './context.js';

/** True when a desktop app naming `version` must update first: older than `minimum`, or no version at all. */
export function isOutdated(version: string, minimum: string): boolean {
  const parsed = semver.valid(version.trim());
  return parsed === null || semver.lt(parsed, minimum);
}

/**
 * Installed desktop apps lag behind the hosted API: one that sends `x-giftlink-version` below
 * MIN_DESKTOP_VERSION (or a version that does not parse) gets 426 upgrade_required with the
 * download address, before any route runs. Requests without the header (the website, scripts)
 * pass untouched.
 */
export function desktopVersionCheck(config: Pick<Config, 'minDesktopVersion' | 'desktopDownloadUrl'>): Middleware {
  return async (ctx, next) => {
    const version = ctx.get(DESKTOP_VERSION_HEADER);
    if (version && isOutdated(version, config.minDesktopVersion)) {
      const body: UpgradeRequiredBody = {
        error: UPGRADE_REQUIRED,
        message: DESKTOP_UPGRADE_REQUIRED,
        downloadUrl: config.desktopDownloadUrl,
      };
      ctx.status = 426;
      ctx.set('Cache-Control', 'no-store');
      ctx.body = body;
      return;
    }
    await next();
  };
}
