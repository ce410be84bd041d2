import { logger } from '../../lib/logger';

/**
 * Opens the server's checkout URL in a new window (spec 2). The checkout call itself
 * carried the bearer header; a failure to open the window is only logged (spec 8).
 */
export function openCheckoutWindow(url: string, open: (url: string) => Window | null = (u) => window.open(u, '_blank')): boolean {
  try {
    const opened = open(url);
    if (!opened) {
      logger.warn('The checkout window could not be opened', url);
      return false;
    }
    return true;
  } catch (error) {
    logger.warn('The checkout window could not be opened', error);
    return false;
  }
}
