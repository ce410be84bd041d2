import { Text } from '@mantine/core';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderPage } from '../test/render';
import { ConfirmDialog } from './confirm-dialog';

function dialog(onConfirm = vi.fn(), onClose = vi.fn(), opened = true) {
  renderPage(
    <ConfirmDialog opened={opened} onClose={onClose} title="Delete it?" cancelLabel="Cancel" confirmLabel="Delete" onConfirm={onConfirm} confirmTestId="confirm">
      <Text>It goes for good.</Text>
    </ConfirmDialog>,
  );
  return { onConfirm, onClose };
}

describe('ConfirmDialog', () => {
  it('shows the title, the text and both buttons', () => {
    dialog();
    expect(screen.getByText('Delete it?')).toBeInTheDocument();
    expect(screen.getByText('It goes for good.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Cancel' })).toBeInTheDocument();
    expect(screen.getByTestId('confirm')).toHaveTextContent('Delete');
  });

  it('runs the action only on confirm', async () => {
    const { onConfirm, onClose } = dialog();
    await userEvent.click(screen.getByTestId('confirm'));
    expect(onConfirm).toHaveBeenCalledTimes(1);
    expect(onClose).not.toHaveBeenCalled();
  });

  it('closes without the action on cancel', async () => {
    const { onConfirm, onClose } = dialog();
    await userEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(onClose).toHaveBeenCalledTimes(1);
    expect(onConfirm).not.toHaveBeenCalled();
  });

  it('shows nothing when closed', () => {
    dialog(vi.fn(), vi.fn(), false);
    expect(screen.queryByText('Delete it?')).not.toBeInTheDocument();
  });
});
