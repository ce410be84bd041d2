import { COOKIE_DEFAULT_SECONDS } from './constants';

function secureFlag(): string {
  return typeof window !== 'undefined' && window.location.protocol === 'https:' ? '; Secure' : '';
}

export function setCookie(name: string, value: string, maxAgeSeconds: number = COOKIE_DEFAULT_SECONDS): void {
  document.cookie =
    `${encodeURIComponent(name)}=${encodeURIComponent(value)}; Max-Age=${String(maxAgeSeconds)}` +
    `; Path=/; SameSite=Strict${secureFlag()}`;
}

export function getCookie(name: string): string | null {
  const prefix = `${encodeURIComponent(name)}=`;
  for (const part of document.cookie.split(';')) {
    const item = part.trim();
    if (item.startsWith(prefix)) return decodeURIComponent(item.slice(prefix.length));
  }
  return null;
}

export function deleteCookie(name: string): void {
  document.cookie = `${encodeURIComponent(name)}=; Max-Age=0; Path=/; SameSite=Strict${secureFlag()}`;
}
