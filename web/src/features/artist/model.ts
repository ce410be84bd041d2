import type { Schema } from '../../lib/api-types';

/** An artist (a project) as the public sees it (GET /artists/{id}). */
export type Artist = Schema<'Artist'>;

/** Concerts asked for at once on an artist's page (as many as the home page shows). */
export const ARTIST_CONCERTS_PAGE_SIZE = 24;

/** The shareable public page of an artist (a project). */
export function artistPath(projectId: string): string {
  return `/artists/${encodeURIComponent(projectId)}`;
}

/** The artist's own words as paragraphs: blank lines separate them; a single line break
 * stays inside its paragraph. */
export function paragraphs(text: string): string[] {
  return text
    .split(/\r?\n\s*\r?\n/)
    .map((paragraph) => paragraph.trim())
    .filter(Boolean);
}

/** Up to two letters standing for a name with no picture: the first letters of its first
 * and last words, or the first two of a single word (whole characters, any script). */
export function initials(name: string): string {
  const words = name.trim().split(/\s+/).filter(Boolean);
  const first = Array.from(words[0] ?? '');
  const last = words.length > 1 ? Array.from(words[words.length - 1] ?? '') : [];
  const letters = last.length > 0 ? [first[0], last[0]] : first.slice(0, 2);
  return letters.join('').toLocaleUpperCase();
}

/** The colours a picture's placeholder takes, white initials readable on each (shade 8). */
export const PLACEHOLDER_COLOURS = ['blue', 'teal', 'grape', 'indigo', 'orange', 'pink', 'cyan', 'violet'] as const;

/** The same name always gets the same colour. */
export function placeholderColour(name: string): (typeof PLACEHOLDER_COLOURS)[number] {
  let hash = 0;
  for (const char of name) hash = (hash * 31 + (char.codePointAt(0) ?? 0)) >>> 0;
  return PLACEHOLDER_COLOURS[hash % PLACEHOLDER_COLOURS.length] ?? 'blue';
}
