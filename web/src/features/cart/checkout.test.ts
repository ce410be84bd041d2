import { openCheckoutWindow } from './checkout';
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
