import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { setupI18n } from '../../i18n';
import { toUser } from '../../features/users/model';
import { account } from '../../test/fixtures';
import { renderPage } from '../../test/render';
import { ProfileMenu } from './profile-menu';

describe('the profile menu', () => {
  beforeAll(async () => {
    await setupI18n('gb');
  });

  it('sends each entry somewhere of its own: profile, account, explore, help', async () => {
    renderPage(<ProfileMenu user={toUser(account())} />);
    await userEvent.click(screen.getByTestId('profile-menu'));
    await screen.findByTestId('profile-account');
    const href = (name: string): string | null | undefined =>
      screen.getAllByRole('menuitem', { hidden: true }).find((item) => item.textContent === name)?.getAttribute('href');
    const places = {
      profile: href('Profile'),
      account: href('Account'),
      explore: href('Explore'),
      help: href('Help and support'),
    };
    expect(places).toEqual({ profile: '/preferences', account: '/preferences#account', explore: '/events', help: '/help' });
    // Change language opens its own dialog.
    await userEvent.click(screen.getByTestId('change-language'));
    expect(await screen.findByRole('dialog', { name: 'Change language' })).toBeInTheDocument();
  });
});
