import { MantineProvider } from '@mantine/core';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { setupI18n } from '../../../i18n';
import { ThemeToggle } from './theme-toggle';

describe('the theme toggle', () => {
  beforeAll(async () => {
    await setupI18n('gb');
  });

  it('switches dark to light and back, saying what it will do', async () => {
    render(
      <MantineProvider defaultColorScheme="dark">
        <ThemeToggle />
      </MantineProvider>,
    );
    const toggle = screen.getByTestId('theme-toggle');
    expect(toggle).toHaveAttribute('aria-label', 'Switch to the light theme');
    await userEvent.click(toggle);
    expect(document.documentElement).toHaveAttribute('data-mantine-color-scheme', 'light');
    expect(screen.getByTestId('theme-toggle')).toHaveAttribute('aria-label', 'Switch to the dark theme');
    await userEvent.click(screen.getByTestId('theme-toggle'));
    expect(document.documentElement).toHaveAttribute('data-mantine-color-scheme', 'dark');
  });
});
