/** A message body cut into plain text, links (clickable), codes (easy to read and copy)
 * and the marks left where a link or code was withheld. */
export type BodyPart =
  | { kind: 'text'; text: string }
  | { kind: 'link'; href: string }
  | { kind: 'code'; code: string }
  | { kind: 'redacted' };

/** What the server puts in place of a link or code the reader may not see. */
export const REDACTED_MARK = '•••';

// Links (http and https only), stand-alone 4-8 digit codes, and the redaction mark.
const TOKEN = /(https?:\/\/[^\s<>"'`]+)|(?<![\w.:/-])(\d{4,8})(?![\w-]|[.,]\d)|(•••)/g;
// Sentence punctuation right after a link belongs to the sentence.
const TRAILING = /[.,;:!?)\]}'"]+$/;

export function bodyParts(body: string): BodyPart[] {
  const parts: BodyPart[] = [];
  const pushText = (text: string): void => {
    if (!text) return;
    const last = parts.at(-1);
    if (last?.kind === 'text') last.text += text;
    else parts.push({ kind: 'text', text });
  };
  let at = 0;
  for (const match of body.matchAll(TOKEN)) {
    const [whole, link, code] = match;
    pushText(body.slice(at, match.index));
    at = match.index + whole.length;
    if (link !== undefined) {
      const trailing = TRAILING.exec(link)?.[0] ?? '';
      const href = link.slice(0, link.length - trailing.length);
      if (href.length > 'https://'.length) parts.push({ kind: 'link', href });
      else pushText(href);
      pushText(trailing);
    } else if (code !== undefined) {
      parts.push({ kind: 'code', code });
    } else {
      parts.push({ kind: 'redacted' });
    }
  }
  pushText(body.slice(at));
  return parts;
}
