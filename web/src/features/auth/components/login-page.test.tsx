import { screen } from '@testing-library/react';
import { setupI18n } from '../../../i18n';
import { renderPage } from '../../../test/render';
import { LoginPage } from './login-page';

function field(name: string): HTMLInputElement {
  const found = document.querySelector<HTMLInputElement>(`input[name="${name}"]`);
  if (!found) throw new Error(`no input ${name}`);
  return found;
}

describe('the sign-in page', () => {
  beforeAll(async () => {
    await setupI18n('gb');
  });
  beforeEach(() => {
    // The QR sign-in asks the server for a code: it stays pending here.
    vi.stubGlobal('fetch', vi.fn(() => new Promise(() => undefined)));
  });
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('after sign-up, has the e-mail filled in and the cursor in the password field', async () => {
    renderPage(<LoginPage />, '/auth/login?redirect=%2Fconcerts%2F7&email=nina%40example.com');
    await screen.findByTestId('login-submit');
    expect(field('email').value).toBe('nina@example.com');
    expect(document.activeElement).toBe(field('password'));
  });

  it('without a known e-mail, starts in the e-mail field', async () => {
    renderPage(<LoginPage />, '/auth/login');
    await screen.findByTestId('login-submit');
    expect(document.activeElement).toBe(field('email'));
  });

  it('offers the password manager the e-mail as the user name and the current password', async () => {
    renderPage(<LoginPage />, '/auth/login');
    await screen.findByTestId('login-submit');
    expect(field('email').autocomplete).toBe('username');
    expect(field('password').autocomplete).toBe('current-password');
  });
});
