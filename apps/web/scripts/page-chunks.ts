import fs from 'node:fs';
import path from 'node:path';
import { build, type Plugin, type Rolldown } from 'vite';

/**
 * The pages whose first load matters most: the sign-in page (a person's first visit) and the room
 * board (where every signed-in visit lands). Route files relative to apps/web, as in
 * bench/bundle-size.ts; `__root.tsx` is part of the entry and not listed.
 */
export const KEY_PAGES = {
  'sign-in': ['src/routes/login.tsx'],
  board: ['src/routes/_auth.tsx', 'src/routes/_auth/room/index.tsx'],
} as const;

/**
 * The addresses of the key pages, for the server's preloads (PAGE_PRELOADS_FILE): the board is a
 * signed-in page (without the stored user info the router sends the visitor to the sign-in page).
 */
const KEY_PAGE_PATHS: Record<PageName, { paths: string[]; signedIn: boolean; scripts: string[] }> = {
  // public/sign-in-early.js asks for the graphic code as the page starts.
  'sign-in': { paths: ['/login'], signedIn: false, scripts: ['sign-in-early.js'] },
  board: { paths: ['/room'], signedIn: true, scripts: [] },
};

/**
 * Written by the build beside Vite's manifest (not served: a dot folder) and read by the server
 * (apps/server/src/http/static.ts): for each key page, the chunks its route loads besides the entry,
 * and for each language the first part of its texts. The server names them in the page's HTML as
 * `<link rel="modulepreload">`, so the browser fetches them alongside the entry instead of after it
 * has run (issue 18 §4: on a phone's round trip of 150 ms, the sign-in page's chunks came three
 * round trips after its HTML: entry, texts, route, the form's own).
 */
export const PAGE_PRELOADS_FILE = '.vite/page-preloads.json';

export interface PagePreloads {
  /** `files`: chunks to preload; `scripts`: small classic scripts of public/ the page runs as it starts (async). */
  pages: Record<string, { paths: string[]; signedIn: boolean; files: string[]; scripts: string[] }>;
  /** Language header (`en`, `zh-CN`) -> the file of its first part of texts. */
  locales: Record<string, string>;
}

type PageName = keyof typeof KEY_PAGES;

/** Set while the probe build runs (the same config, chunked as Rolldown would by itself). */
export const isProbeBuild = () => process.env.PAGE_CHUNKS_PROBE === '1';

const isRouteSplit = (id: string) => id.includes('?tsr-split');
const isLocale = (id: string) => /[\\/]locales[\\/]/.test(id);

/**
 * Rolldown puts every module that a different set of lazy chunks shares into a chunk of its own:
 * with about 40 routes split out, the room board loaded 67 files before it could show itself, most
 * of them of 1 to 5 kB, and 119 scripts in all on a cold load (issue 18 §4; each a request, on a
 * phone's round trip). This plugin gathers what the key pages load into a few chunks:
 *
 * 1. Before the build, a probe build of the same config (not written) chunks the console as
 *    Rolldown does by itself. Its chunks say, after tree shaking and through the libraries' barrel
 *    files, which modules each key page's route chunks load statically besides the entry.
 * 2. The real build puts those modules in three chunks: what both pages load (`common`: buttons,
 *    form fields, icons, Radix primitives, TanStack Query's hooks), what only the board loads
 *    (`board`: the layout, the sidebar, the board's parts), what only the sign-in page loads
 *    (`sign-in`: the form), and what the board loads at once and the sign-in page only later (`menus`:
 *    the language menu's dropdown; in the board's chunk the sign-in page would fetch the whole board
 *    for it). Each page then downloads the entry, its language, its route chunks and
 *    one or two shared chunks, nothing it did not download before. Everything else (other routes,
 *    the dialogs loaded on first use) is chunked as before.
 *
 * A group takes only the modules named (`includeDependenciesRecursively: false`): a module's
 * dependencies that the page does not load (what a barrel file re-exports) stay where Rolldown
 * puts them.
 */
export function pageChunks(configFile: string): { plugin: Plugin; groups: (initialGroup: Rolldown.CodeSplittingGroup) => Rolldown.CodeSplittingGroup[] } {
  const webDir = path.dirname(configFile);
  const routeOf = (id: string) => path.relative(webDir, id.split('?')[0]!).split(path.sep).join('/');
  const sets = { common: new Set<string>(), boardMenus: new Set<string>(), board: new Set<string>(), signIn: new Set<string>() };
  const plugin: Plugin = {
    name: 'page-chunks',
    apply: (_config, env) => env.command === 'build' && !isProbeBuild(),
    generateBundle(_options, bundle) {
      const chunks = new Map<string, Rolldown.OutputChunk>();
      for (const item of Object.values(bundle)) if (item.type === 'chunk') chunks.set(item.fileName, item);
      const entry = [...chunks.values()].find((c) => c.isEntry);
      if (!entry) this.error('page-chunks: the build has no entry chunk');
      const skip = new Set([entry.fileName, ...entry.imports]);
      const preloads: PagePreloads = { pages: {}, locales: {} };
      for (const [page, routes] of Object.entries(KEY_PAGES) as [PageName, readonly string[]][]) {
        const roots = [...chunks.values()].filter(
          (c) => c.facadeModuleId && isRouteSplit(c.facadeModuleId) && (routes as readonly string[]).includes(routeOf(c.facadeModuleId)),
        );
        if (!roots.length) this.error(`page-chunks: no route chunk of ${routes.join(', ')} in the build`);
        const files = new Set<string>();
        const stack = roots.map((c) => c.fileName);
        while (stack.length) {
          const file = stack.pop()!;
          if (files.has(file) || skip.has(file)) continue;
          files.add(file);
          stack.push(...(chunks.get(file)?.imports ?? []));
        }
        for (const script of KEY_PAGE_PATHS[page].scripts) {
          if (!fs.existsSync(path.join(webDir, 'public', script))) this.error(`page-chunks: public/${script} is missing`);
        }
        preloads.pages[page] = { ...KEY_PAGE_PATHS[page], files: [...files].sort() };
      }
      for (const chunk of chunks.values()) {
        const language = /[\\/]locales[\\/]([\w-]+)\.json\?part=first$/.exec(chunk.facadeModuleId ?? '')?.[1];
        if (language) preloads.locales[language] = chunk.fileName;
      }
      this.emitFile({ type: 'asset', fileName: PAGE_PRELOADS_FILE, source: `${JSON.stringify(preloads, null, 2)}\n` });
    },
    async buildStart() {
      process.env.PAGE_CHUNKS_PROBE = '1';
      let output: Rolldown.RolldownOutput;
      try {
        const result = await build({ configFile, logLevel: 'silent', build: { write: false, sourcemap: false, manifest: false, emptyOutDir: false } });
        output = (Array.isArray(result) ? result[0] : result) as Rolldown.RolldownOutput;
      } finally {
        delete process.env.PAGE_CHUNKS_PROBE;
      }
      const chunks = new Map<string, Rolldown.OutputChunk>();
      for (const item of output.output) if (item.type === 'chunk') chunks.set(item.fileName, item);
      const entry = [...chunks.values()].find((c) => c.isEntry);
      if (!entry) this.error('page-chunks: the probe build has no entry chunk');
      const needs = {} as Record<PageName, Set<string>>;
      for (const [page, routes] of Object.entries(KEY_PAGES) as [PageName, readonly string[]][]) {
        const roots = [...chunks.values()].filter(
          (c) => c.facadeModuleId && isRouteSplit(c.facadeModuleId) && (routes as readonly string[]).includes(routeOf(c.facadeModuleId)),
        );
        if (!roots.length) this.error(`page-chunks: no route chunk of ${routes.join(', ')} in the probe build`);
        needs[page] = modulesOf(staticClosure(roots.map((c) => c.fileName)));
      }
      // What the sign-in page loads later (on idle or first use: the language menu): kept out of
      // the board's chunk, or the sign-in page would download the whole board for its menu.
      const signInFiles = staticClosure(
        [...chunks.values()]
          .filter((c) => c.facadeModuleId && isRouteSplit(c.facadeModuleId) && (KEY_PAGES['sign-in'] as readonly string[]).includes(routeOf(c.facadeModuleId)))
          .map((c) => c.fileName),
      );
      const signInLater = modulesOf(
        staticClosure(
          [...signInFiles, entry.fileName]
            .flatMap((file) => chunks.get(file)?.dynamicImports ?? [])
            .filter((file) => !isRouteSplit(chunks.get(file)?.facadeModuleId ?? '')),
        ),
      );
      for (const set of Object.values(sets)) set.clear();
      for (const id of needs.board) {
        if (needs['sign-in'].has(id)) sets.common.add(id);
        else if (signInLater.has(id)) sets.boardMenus.add(id);
        else sets.board.add(id);
      }
      for (const id of needs['sign-in']) if (!needs.board.has(id)) sets.signIn.add(id);

      /** Chunks `files` and what they import statically, the entry (and what it imports) aside. */
      function staticClosure(files: string[]): Set<string> {
        const skip = new Set([entry!.fileName, ...entry!.imports]);
        const seen = new Set<string>();
        const stack = [...files];
        while (stack.length) {
          const file = stack.pop()!;
          if (seen.has(file) || skip.has(file)) continue;
          seen.add(file);
          stack.push(...(chunks.get(file)?.imports ?? []));
        }
        return seen;
      }
      function modulesOf(files: Set<string>): Set<string> {
        return new Set([...files].flatMap((file) => chunks.get(file)!.moduleIds).filter((id) => !isRouteSplit(id) && !isLocale(id)));
      }
    },
  };
  const groups = (initialGroup: Rolldown.CodeSplittingGroup): Rolldown.CodeSplittingGroup[] => [
    // A module goes to the group of the highest priority that takes it.
    { ...initialGroup, priority: 5 },
    { name: 'common', test: (id: string) => sets.common.has(id), priority: 4, includeDependenciesRecursively: false },
    { name: 'menus', test: (id: string) => sets.boardMenus.has(id), priority: 3, includeDependenciesRecursively: false },
    { name: 'board', test: (id: string) => sets.board.has(id), priority: 2, includeDependenciesRecursively: false },
    { name: 'sign-in', test: (id: string) => sets.signIn.has(id), priority: 1, includeDependenciesRecursively: false },
  ];
  return { plugin, groups };
}
