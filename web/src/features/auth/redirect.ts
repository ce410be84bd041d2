/** The sign-in page, remembering the page to come back to. The default landing (root → home) is
 * not worth remembering: sign-in lands on the dashboard. */
export function loginPath(from?: string): string {
  return from && from !== '/' && from !== '/home' ? `/auth/login?redirect=${encodeURIComponent(from)}` : '/auth/login';
}

/** Only same-site paths are followed after sign-in (of the sign-in pages, only the QR approval). */
export function safeRedirect(target: string | null): string {
  if (!target?.startsWith('/') || target.startsWith('//') || target.startsWith('/\\')) return '/dashboard';
  if (target.startsWith('/auth') && !target.startsWith('/auth/qr?')) return '/dashboard';
  return target;
}
