import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { COOKIES } from '@console/shared';
import { PAGE_PRELOADS_FILE, guessLanguage, pageHtml, readPagePreloads, type PagePreloads } from './page-preloads';

const HTML = `<!doctype html>
<html lang="zh-CN" dir="ltr">
  <head>
    <script type="module" crossorigin src="/assets/index-abc.js"></script>
  </head>
  <body><div id="root"></div></body>
</html>`;

const PRELOADS: PagePreloads = {
  pages: {
    'sign-in': { paths: ['/login'], signedIn: false, files: ['assets/common-1.js', 'assets/login-2.js'], scripts: ['sign-in-early.js'] },
    board: { paths: ['/room'], signedIn: true, files: ['assets/_auth-3.js', 'assets/board-4.js', 'assets/common-1.js'] },
  },
  locales: { en: 'assets/en-5.js', 'zh-CN': 'assets/zh-CN-6.js', ar: 'assets/ar-7.js', 'zh-TW': 'assets/zh-TW-8.js' },
};

const early = (html: string) => [...html.matchAll(/<script src="\/([^"]+)" async fetchpriority="high"><\/script>/g)].map((m) => m[1]);
const preloaded = (html: string) => [...html.matchAll(/<link rel="modulepreload" crossorigin href="\/([^"]+)">/g)].map((m) => m[1]);
const signedIn = { [COOKIES.userInfo]: 'encrypted' };

describe('the page the server sends (issue 18 §4)', () => {
  it("names the sign-in page's chunks and its language's texts before </head>", () => {
    const html = pageHtml(HTML, PRELOADS, { path: '/login', cookies: {}, acceptLanguage: 'en-US,en;q=0.9' });
    expect(preloaded(html)).toEqual(['assets/en-5.js', 'assets/common-1.js', 'assets/login-2.js']);
    expect(html.indexOf('modulepreload')).toBeLessThan(html.indexOf('</head>'));
    expect(html).toContain('<html lang="en" dir="ltr">');
    // Its early script (the graphic code) comes before the entry's script.
    expect(early(html)).toEqual(['sign-in-early.js']);
    expect(html.indexOf('sign-in-early.js')).toBeLessThan(html.indexOf('index-abc.js'));
  });

  it('runs the early script for a signed-out visitor only', () => {
    expect(early(pageHtml(HTML, PRELOADS, { path: '/login', cookies: signedIn, acceptLanguage: 'en' }))).toEqual([]);
    expect(early(pageHtml(HTML, PRELOADS, { path: '/room', cookies: {}, acceptLanguage: 'en' }))).toEqual(['sign-in-early.js']);
    expect(early(pageHtml(HTML, PRELOADS, { path: '/room', cookies: signedIn, acceptLanguage: 'en' }))).toEqual([]);
    expect(early(pageHtml(HTML, PRELOADS, { path: '/customer/customer', cookies: {}, acceptLanguage: 'en' }))).toEqual([]);
  });

  it("names the board's chunks when signed in, the sign-in page's when not (the router sends the visitor there)", () => {
    expect(preloaded(pageHtml(HTML, PRELOADS, { path: '/room', cookies: signedIn, acceptLanguage: 'en' }))).toEqual([
      'assets/en-5.js',
      'assets/_auth-3.js',
      'assets/board-4.js',
      'assets/common-1.js',
    ]);
    expect(preloaded(pageHtml(HTML, PRELOADS, { path: '/room/', cookies: {}, acceptLanguage: 'en' }))).toEqual([
      'assets/en-5.js',
      'assets/common-1.js',
      'assets/login-2.js',
    ]);
  });

  it('names only the texts on other pages', () => {
    expect(preloaded(pageHtml(HTML, PRELOADS, { path: '/room/tenant', cookies: signedIn, acceptLanguage: 'en' }))).toEqual(['assets/en-5.js']);
    expect(preloaded(pageHtml(HTML, PRELOADS, { path: '/', cookies: signedIn, acceptLanguage: undefined }))).toEqual(['assets/zh-CN-6.js']);
  });

  it('guesses the language as the page chooses it: the language cookie, the browser languages in order of preference, else Simplified Chinese', () => {
    expect(guessLanguage({ [COOKIES.language]: 'ar' }, 'en-US,en;q=0.9').header).toBe('ar');
    expect(guessLanguage({ [COOKIES.language]: 'xx' }, 'en-US,en;q=0.9').header).toBe('en');
    expect(guessLanguage({}, 'sv-SE, zh-Hant-TW;q=0.8, en;q=0.5').header).toBe('zh-TW');
    expect(guessLanguage({}, 'en;q=0.2, ar;q=0.9').header).toBe('ar');
    expect(guessLanguage({}, 'sv, *;q=0.1').header).toBe('zh-CN');
    expect(guessLanguage({}, undefined).header).toBe('zh-CN');
  });

  it('lays an Arabic page out right to left from the start', () => {
    const html = pageHtml(HTML, PRELOADS, { path: '/login', cookies: { [COOKIES.language]: 'ar' }, acceptLanguage: 'en' });
    expect(html).toContain('<html lang="ar" dir="rtl">');
    expect(preloaded(html)[0]).toBe('assets/ar-7.js');
  });

  it("reads the build's file, keeping only files of its assets folder and scripts of its root that exist", () => {
    const dist = fs.mkdtempSync(path.join(os.tmpdir(), 'sl-preloads-'));
    try {
      expect(readPagePreloads(dist)).toBeUndefined();
      fs.mkdirSync(path.join(dist, '.vite'));
      const file: PagePreloads = {
        pages: {
          board: { paths: ['/room'], signedIn: true, files: ['assets/board-4.js', '"><script>alert(1)</script>', '../secret.js'] },
          'sign-in': { paths: ['/login'], signedIn: false, files: [], scripts: ['sign-in-early.js', 'missing.js', '../x.js', '"><b>.js'] },
        },
        locales: { en: 'assets/en-5.js', de: 'https://elsewhere.example/de.js' },
      };
      fs.writeFileSync(path.join(dist, PAGE_PRELOADS_FILE), JSON.stringify(file));
      fs.writeFileSync(path.join(dist, 'sign-in-early.js'), '');
      expect(readPagePreloads(dist)).toEqual({
        pages: {
          board: { paths: ['/room'], signedIn: true, files: ['assets/board-4.js'], scripts: [] },
          'sign-in': { paths: ['/login'], signedIn: false, files: [], scripts: ['sign-in-early.js'] },
        },
        locales: { en: 'assets/en-5.js' },
      });
    } finally {
      fs.rmSync(dist, { recursive: true, force: true });
    }
  });
});
