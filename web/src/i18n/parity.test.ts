import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { LANGUAGES, NAMESPACES } from './languages';

const LOCALES = join(__dirname, '..', 'locales');

type Tree = { [key: string]: string | Tree };

function flatten(tree: Tree, prefix = ''): Map<string, string> {
  const out = new Map<string, string>();
  for (const [key, value] of Object.entries(tree)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (typeof value === 'string') out.set(path, value);
    else for (const [k, v] of flatten(value, path)) out.set(k, v);
  }
  return out;
}

const load = (lang: string, ns: string): Map<string, string> =>
  flatten(JSON.parse(readFileSync(join(LOCALES, lang, `${ns}.json`), 'utf8')) as Tree);

const placeholders = (text: string): string[] => [...text.matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((m) => m[1] ?? '').sort();

describe('translations', () => {
  it('has a folder per language and a file per namespace, nothing else', () => {
    expect(readdirSync(LOCALES).sort()).toEqual(LANGUAGES.map((l) => l.code).sort());
    for (const { code } of LANGUAGES) {
      expect(readdirSync(join(LOCALES, code)).sort()).toEqual(NAMESPACES.map((ns) => `${ns}.json`).sort());
    }
  });

  for (const ns of NAMESPACES) {
    const english = load('gb', ns);
    for (const { code } of LANGUAGES.filter((l) => l.code !== 'gb')) {
      it(`${code}/${ns}.json has exactly the keys of gb/${ns}.json, each non-empty with the same placeholders`, () => {
        const other = load(code, ns);
        const missing = [...english.keys()].filter((key) => !other.has(key));
        const extra = [...other.keys()].filter((key) => !english.has(key));
        expect({ missing, extra }).toEqual({ missing: [], extra: [] });
        for (const [key, text] of other) {
          expect(text.trim(), `${code}/${ns}:${key}`).not.toBe('');
          expect(placeholders(text), `${code}/${ns}:${key}`).toEqual(placeholders(english.get(key) ?? ''));
        }
      });
    }
  }

  it('leaves no English sentence untranslated in another language', () => {
    // Identical strings are allowed only for names and symbols that are the same in every language
    // (codec names, SI unit symbols).
    const sameEverywhere = new Set(['Encore', '404', 'FAQ', 'E-mail', 'PNG, JPEG, WebP or GIF, 2 MiB at most.', 'Chat', 'AAC', 'FLAC', 'AAC {{kbps}} kbit/s', 'FLAC {{khz}} kHz']);
    const offenders: string[] = [];
    for (const ns of NAMESPACES) {
      const english = load('gb', ns);
      for (const { code } of LANGUAGES.filter((l) => l.code !== 'gb')) {
        for (const [key, text] of load(code, ns)) {
          const source = english.get(key) ?? '';
          if (text === source && !sameEverywhere.has(source) && /[a-z]{3,}/i.test(source.replace(/\{\{\w+\}\}/g, ''))) {
            offenders.push(`${code}/${ns}:${key}`);
          }
        }
      }
    }
    expect(offenders).toEqual([]);
  });
});
