import { goToPayment, openCheckoutWindow, paymentWindow } from './checkout';
import { logger } from '../../lib/logger';

describe('checkout window', () => {
  it('opens the URL it is given', () => {
    const open = vi.fn(() => ({}) as Window);
    expect(openCheckoutWindow('/pay/1?token=x', open)).toBe(true);
    expect(open).toHaveBeenCalledWith('/pay/1?token=x');
  });

  it('only logs when the window is blocked or fails', () => {
    const warn = vi.spyOn(logger, 'warn').mockImplementation(() => undefined);
    expect(openCheckoutWindow('/pay/1', () => null)).toBe(false);
    expect(
      openCheckoutWindow('/pay/1', () => {
        throw new Error('blocked');
      }),
    ).toBe(false);
    expect(warn).toHaveBeenCalledTimes(2);
    warn.mockRestore();
  });
});

describe('pay now while a concert plays', () => {
  it('pays in this window when nothing plays', () => {
    const open = vi.fn(() => ({}) as Window);
    expect(paymentWindow(false, open)).toBeNull();
    expect(open).not.toHaveBeenCalled();
    const here = vi.fn();
    goToPayment('/pay/1', null, here);
    expect(here).toHaveBeenCalledWith('/pay/1');
  });

  it('opens a window at the click while a concert plays, and the payment goes there, not here', () => {
    const target = { closed: false, location: { href: 'about:blank' } } as unknown as Window;
    const open = vi.fn(() => target);
    expect(paymentWindow(true, open)).toBe(target);
    const here = vi.fn();
    goToPayment('/pay/1', target, here);
    expect(target.location.href).toBe('/pay/1');
    expect(here).not.toHaveBeenCalled();
  });

  it('pays here after all when the window was blocked or closed', () => {
    const warn = vi.spyOn(logger, 'warn').mockImplementation(() => undefined);
    expect(paymentWindow(true, () => null)).toBeNull();
    expect(
      paymentWindow(true, () => {
        throw new Error('blocked');
      }),
    ).toBeNull();
    warn.mockRestore();
    const here = vi.fn();
    goToPayment('/pay/2', { closed: true } as Window, here);
    expect(here).toHaveBeenCalledWith('/pay/2');
  });
});
