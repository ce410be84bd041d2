/** A sign-in or sign-up link that brings the visitor back to `back` (the page checks it is a
 * same-origin path before going there) and carries the e-mail already typed, if any. */
export function authLink(page: '/auth/login' | '/auth/signup', back: string | null, email = ''): string {
  const params = new URLSearchParams();
  if (back) params.set('redirect', back);
  if (email) params.set('email', email);
  const query = params.toString();
  return query ? `${page}?${query}` : page;
}
