import { loginPath, safeRedirect } from './redirect';

describe('sign-in redirects', () => {
  it('follows only same-site redirects after sign-in', () => {
    expect(safeRedirect('/users')).toBe('/users');
    expect(safeRedirect('//evil.example')).toBe('/dashboard');
    expect(safeRedirect('https://evil.example')).toBe('/dashboard');
    expect(safeRedirect(null)).toBe('/dashboard');
    expect(safeRedirect('/auth/login')).toBe('/dashboard');
    expect(safeRedirect('/auth/qr?id=abc')).toBe('/auth/qr?id=abc');
  });

  it('remembers the page to come back to, except the default landing', () => {
    expect(loginPath('/concerts/7')).toBe('/auth/login?redirect=%2Fconcerts%2F7');
    expect(loginPath('/home')).toBe('/auth/login');
    expect(loginPath()).toBe('/auth/login');
  });
});
