/** The browser's IANA time zone (`Asia/Tehran`), or null when it does not say. The server
 * writes the times in notifications in it. */
export function browserTimeZone(): string | null {
  try {
    const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
    return typeof zone === 'string' && zone.length > 0 ? zone : null;
  } catch {
    return null;
  }
}
