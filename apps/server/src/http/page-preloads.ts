import fs from 'node:fs';
import path from 'node:path';
import { COOKIES, LANGUAGES, resolveLanguageHeader, type TLanguage } from '@console/shared';

/**
 * What the web build wrote in `dist/.vite/page-preloads.json` (apps/web/scripts/page-chunks.ts):
 * the chunks each key page's route loads besides the entry, and each language's first part of texts.
 */
export interface PagePreloads {
  /** `files`: the route's chunks (assets/); `scripts`: small scripts of the build's root the page runs as it starts. */
  pages: Record<string, { paths: string[]; signedIn: boolean; files: string[]; scripts?: string[] }>;
  locales: Record<string, string>;
}

export const PAGE_PRELOADS_FILE = path.join('.vite', 'page-preloads.json');

/** The build's preloads, or undefined when it wrote none (an older build: the pages are served as they are). */
export function readPagePreloads(distDir: string): PagePreloads | undefined {
  const file = path.join(distDir, PAGE_PRELOADS_FILE);
  if (!fs.existsSync(file)) return undefined;
  const parsed = JSON.parse(fs.readFileSync(file, 'utf8')) as PagePreloads;
  // Only files of the build's assets folder are ever named (the file is the build's, but a link is HTML).
  const safe = (file: string) => /^assets\/[\w.-]+\.js$/.test(file);
  const safeScript = (file: string) => /^[\w-]+(\.[\w-]+)*\.js$/.test(file) && fs.existsSync(path.join(distDir, file));
  for (const page of Object.values(parsed.pages)) {
    page.files = page.files.filter(safe);
    page.scripts = (page.scripts ?? []).filter(safeScript);
  }
  for (const [language, file] of Object.entries(parsed.locales)) if (!safe(file)) delete parsed.locales[language];
  return parsed;
}

/**
 * The interface language the page will choose, as far as the server can tell: the `language`
 * cookie the console keeps beside its stored choice (apps/web/src/lib/language.ts), else the first
 * of the browser's languages that the console has (what the page does without a stored choice),
 * else Simplified Chinese.
 */
export function guessLanguage(cookies: Record<string, string | undefined>, acceptLanguage: string | undefined): TLanguage {
  const stored = LANGUAGES.find((l) => l.header === cookies[COOKIES.language]);
  if (stored) return stored;
  const tags = (acceptLanguage ?? '')
    .split(',')
    .map((part, index) => {
      const [tag = '', ...params] = part.trim().split(';');
      const q = Number(
        params
          .find((p) => p.trim().startsWith('q='))
          ?.trim()
          .slice(2) ?? 1,
      );
      return { tag: tag.trim(), q: Number.isFinite(q) ? q : 0, index };
    })
    .filter((t) => t.tag && t.tag !== '*' && t.q > 0)
    .sort((a, b) => b.q - a.q || a.index - b.index);
  for (const { tag } of tags) {
    const header = resolveLanguageHeader(tag);
    const match = LANGUAGES.find((l) => l.header === header);
    if (match) return match;
  }
  return LANGUAGES[0];
}

/**
 * The console's index.html for one request: `lang` and `dir` of the language the page will show,
 * and `<link rel="modulepreload">` for that language's first texts and, on a key page, the chunks
 * of its route (the sign-in page's when a signed-in page is asked for without the stored user info:
 * the router sends the visitor there). The browser fetches them alongside the entry instead of
 * one round trip after another once the entry has run (issue 18 §4). A signed-out visitor's
 * sign-in page also runs its early script (public/sign-in-early.js: the graphic code, asked for
 * before the entry has run), before the entry's script.
 */
export function pageHtml(
  html: string,
  preloads: PagePreloads,
  request: { path: string; cookies: Record<string, string | undefined>; acceptLanguage: string | undefined },
): string {
  const language = guessLanguage(request.cookies, request.acceptLanguage);
  const signedIn = Boolean(request.cookies[COOKIES.userInfo]);
  const pathname = request.path.length > 1 ? request.path.replace(/\/+$/, '') : request.path;
  let page = Object.values(preloads.pages).find((p) => p.paths.includes(pathname));
  if (page?.signedIn && !signedIn) page = Object.values(preloads.pages).find((p) => !p.signedIn);
  const files = [preloads.locales[language.header], ...(page?.files ?? [])].filter((f): f is string => Boolean(f));
  const links = files.map((file) => `<link rel="modulepreload" crossorigin href="/${file}">`).join('\n    ');
  const scripts = page && !page.signedIn && !signedIn ? (page.scripts ?? []) : [];
  let out = html.replace(/<html\b[^>]*>/, `<html lang="${language.header}" dir="${language.dir}">`);
  if (scripts.length) {
    const tags = scripts.map((file) => `<script src="/${file}" async fetchpriority="high"></script>`).join('\n    ');
    const at = out.search(/<script\b/);
    out = at >= 0 ? `${out.slice(0, at)}${tags}\n    ${out.slice(at)}` : out.replace('</head>', `  ${tags}\n  </head>`);
  }
  return out.replace('</head>', links ? `  ${links}\n  </head>` : '</head>');
}
