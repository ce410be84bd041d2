import { useMutation } from '@tanstack/react-query';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactNode } from 'react';
import { setupI18n } from '../../../i18n';
import { ApiError } from '../../../lib/errors';
import { renderPage } from '../../../test/render';
import type { SignUpValues } from '../mutations';
import { SignUpForm } from './signup-form';

function Harness({ withName, submit }: { withName: boolean; submit: (values: SignUpValues) => Promise<unknown> }): ReactNode {
  const mutation = useMutation({ mutationFn: submit });
  return <SignUpForm withName={withName} submitLabel="Create" mutation={mutation} />;
}

function renderForm(withName: boolean, submit: (values: SignUpValues) => Promise<unknown>): HTMLElement {
  return renderPage(<Harness withName={withName} submit={submit} />).container;
}

function input(container: HTMLElement, name: string): HTMLInputElement {
  const found = container.querySelector<HTMLInputElement>(`input[name="${name}"]`);
  if (!found) throw new Error(`no input ${name}`);
  return found;
}

async function fill(container: HTMLElement, values: Partial<SignUpValues>): Promise<void> {
  for (const [name, value] of Object.entries(values)) await userEvent.type(input(container, name), value);
}

describe('the shared sign-up form', () => {
  beforeAll(async () => {
    await setupI18n('gb');
  });

  it('asks for the name when the page wants it, and sends nothing without it', async () => {
    const submit = vi.fn((_values: SignUpValues) => Promise.resolve(null));
    const container = renderForm(true, submit);
    await fill(container, { email: 'nina@example.com', password: 'long-enough', passwordCheck: 'long-enough' });
    await userEvent.click(screen.getByTestId('signup-submit'));
    expect(await screen.findByText('Enter your name.')).toBeInTheDocument();
    expect(submit).not.toHaveBeenCalled();
  });

  it('sends the name, e-mail and password once every field is valid', async () => {
    const submit = vi.fn((_values: SignUpValues) => Promise.resolve(null));
    const container = renderForm(true, submit);
    await fill(container, { fullname: 'Nina New', email: 'nina@example.com', password: 'long-enough', passwordCheck: 'long-enough' });
    await userEvent.click(screen.getByTestId('signup-submit'));
    await waitFor(() => {
      expect(submit).toHaveBeenCalledTimes(1);
    });
    expect(submit.mock.calls[0]?.[0]).toMatchObject({ fullname: 'Nina New', email: 'nina@example.com', password: 'long-enough' });
  });

  it('says a common password is refused while it is typed, and does not send it', async () => {
    const submit = vi.fn((_values: SignUpValues) => Promise.resolve(null));
    const container = renderForm(true, submit);
    await fill(container, { fullname: 'Nina New', email: 'nina@example.com', password: 'Password1' });
    expect(await screen.findByText('This password is among the most common ones: choose another.')).toBeInTheDocument();
    await userEvent.clear(input(container, 'password'));
    await fill(container, { password: 'long-enough' });
    await waitFor(() => {
      expect(screen.queryByText('This password is among the most common ones: choose another.')).not.toBeInTheDocument();
    });
    await userEvent.clear(input(container, 'password'));
    await fill(container, { password: 'iloveyou', passwordCheck: 'iloveyou' });
    await userEvent.click(screen.getByTestId('signup-submit'));
    expect(await screen.findByText('This password is among the most common ones: choose another.')).toBeInTheDocument();
    expect(submit).not.toHaveBeenCalled();
  });

  it('offers the e-mail to the password manager as the user name, the password as a new one', () => {
    const container = renderForm(true, vi.fn());
    expect(input(container, 'email').autocomplete).toBe('username');
    expect(input(container, 'password').autocomplete).toBe('new-password');
    expect(input(container, 'passwordCheck').autocomplete).toBe('new-password');
  });

  it('leaves the name out for registration', () => {
    const container = renderForm(false, vi.fn());
    expect(container.querySelector('input[name="fullname"]')).toBeNull();
  });

  it('signup conflict (409) gives "User already exists"', async () => {
    const submit = vi.fn((_values: SignUpValues) => Promise.reject(new ApiError('conflict', 409)));
    const container = renderForm(false, submit);
    await fill(container, { email: 'nina@example.com', password: 'long-enough', passwordCheck: 'long-enough' });
    await userEvent.click(screen.getByTestId('signup-submit'));
    expect(await screen.findByTestId('signup-error')).toHaveTextContent('User already exists');
    expect(submit).toHaveBeenCalledTimes(1);
  });
});
