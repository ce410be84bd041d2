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

/**
 * Where "Pay now" shows the payment page. Normally this window; while a concert is in the
 * player, a new one opened at the click (one opened later, when the checkout URL comes back,
 * would be blocked), so that the show plays on here. Null: this window.
 */
export function paymentWindow(playing: boolean, open: () => Window | null = () => window.open('', '_blank')): Window | null {
  if (!playing) return null;
  try {
    return open();
  } catch (error) {
    logger.warn('The payment window could not be opened', error);
    return null;
  }
}

/** Shows the payment page in the window chosen at the click, else in this one. */
export function goToPayment(url: string, target: Window | null, here: (url: string) => void = (u) => { window.location.assign(u); }): void {
  if (target && !target.closed) target.location.href = url;
  else here(url);
}
