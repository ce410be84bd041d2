import { MantineProvider } from '@mantine/core';
import { render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import i18n, { setupI18n } from '../../../i18n';
import { NotFoundPage } from './not-found-page';

describe('404 page', () => {
  beforeAll(async () => {
    await setupI18n('gb');
  });

  it('says the page has gone fishing, asks for a message and offers the dashboard', () => {
    render(
      <MantineProvider>
        <MemoryRouter>
          <NotFoundPage />
        </MemoryRouter>
      </MantineProvider>,
    );
    expect(screen.getByText("This page's gone fishing.")).toBeInTheDocument();
    expect(screen.getByText(/send us a message/)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to dashboard' })).toHaveAttribute('href', '/dashboard');
  });

  it('mirrors the document for Persian and restores it for English', async () => {
    await i18n.changeLanguage('ir');
    expect(document.documentElement.dir).toBe('rtl');
    expect(document.documentElement.lang).toBe('fa-IR');
    expect(localStorage.getItem('language')).toBe('ir');
    await i18n.changeLanguage('gb');
    expect(document.documentElement.dir).toBe('ltr');
  });
});
