// Draws the installable web app's PNG icons (public/icons/) from their SVG sources with
// Debian's chromium: `node scripts/icons.mjs` after changing an SVG. The PNGs are committed.
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const ICONS = resolve(dirname(fileURLToPath(import.meta.url)), '..', 'public', 'icons');
/** Each PNG: its SVG source and its size in pixels. */
export const PNG_ICONS = [
  { file: 'icon-192.png', svg: 'icon.svg', size: 192 },
  { file: 'icon-512.png', svg: 'icon.svg', size: 512 },
  { file: 'icon-maskable-512.png', svg: 'icon-maskable.svg', size: 512 },
  { file: 'apple-touch-icon.png', svg: 'icon-maskable.svg', size: 180 },
];

const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: ['--headless', '--no-sandbox'] });
try {
  for (const { file, svg, size } of PNG_ICONS) {
    const page = await browser.newPage({ viewport: { width: size, height: size } });
    const source = readFileSync(join(ICONS, svg), 'utf8').replace('<svg ', `<svg width="${size}" height="${size}" `);
    await page.setContent(`<html><body style="margin:0;background:transparent">${source}</body></html>`);
    await page.screenshot({ path: join(ICONS, file), omitBackground: true, clip: { x: 0, y: 0, width: size, height: size } });
    await page.close();
    console.log(`${file}: ${size}×${size}`);
  }
} finally {
  await browser.close();
}
