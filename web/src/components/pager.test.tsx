import { act, screen } from '@testing-library/react';
import i18n, { setupI18n } from '../i18n';
import { renderPage } from '../test/render';
import { Pager } from './pager';

describe('the pager under a paged list', () => {
  beforeAll(async () => {
    await setupI18n('gb');
  });

  it('numbers its pages in English digits in English', () => {
    renderPage(<Pager pages={3} page={1} onChange={() => undefined} />);
    expect(screen.getAllByRole('button').map((button) => button.textContent).filter(Boolean)).toEqual(['1', '2', '3']);
  });

  it('numbers its pages in Persian digits in Persian', async () => {
    await act(() => i18n.changeLanguage('ir'));
    try {
      renderPage(<Pager pages={3} page={1} onChange={() => undefined} />);
      expect(screen.getAllByRole('button').map((button) => button.textContent).filter(Boolean)).toEqual(['۱', '۲', '۳']);
    } finally {
      await act(() => i18n.changeLanguage('gb'));
    }
  });
});
