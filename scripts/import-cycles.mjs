#!/usr/bin/env node
// No import circles, type-only imports included (part of `pnpm lint`): a circle is where a
// newcomer cannot tell which module comes first, and a type-only one is how the last one began
// (context.ts -> jobs/queues.ts -> the job payloads in the modules -> context.ts). ESLint's
// import-x/no-cycle skips type imports, so madge reads the import graph of each package.
// Prisma's generated client is left out (its files refer to each other by design).
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import madge from 'madge';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const PACKAGES = ['apps/server', 'apps/web', 'apps/lock-sim', 'apps/reader-sim', 'packages/shared', 'packages/card-format'];

// Folder-level circles (issue 27, docs/decisions/042-one-credential-writer.md): a folder of these
// (a server module, a web feature; the server's http/ and legacy/ faces) imports another only if
// that one does not import it back, by any way round. Files may be circle-free while their folders
// are knotted (stay -> orders -> stay), and a knot is how a module stops having a place in the
// layers. An import through files of no such folder counts as one (issue 37 §3: six modules reached
// credentials/lock-tags.ts through context.ts -> jobs/queues.ts -> jobs/payloads.ts, unseen).
const FOLDERS = { 'apps/server': /^(modules\/[^/]+|http|legacy)\//, 'apps/web': /^(features\/[^/]+)\// };

/** A test, or a helper of tests: no layer of the program (it may reach across folders). */
const isTest = (file) => /\.test\.tsx?$/.test(file) || /^test\//.test(file);

/**
 * The folder edges that lie on a circle: both ends in one strongly connected component (Tarjan).
 * A file of a folder reaches another folder directly or through files of no folder.
 */
function edgesOnCircles(graph, folderOf) {
  const edges = new Map();
  for (const file of Object.keys(graph)) {
    const a = folderOf(file);
    if (!a || isTest(file)) continue;
    const seen = new Set();
    const todo = [...graph[file]];
    while (todo.length) {
      const dep = todo.pop();
      if (seen.has(dep) || isTest(dep)) continue;
      seen.add(dep);
      const b = folderOf(dep);
      if (!b) {
        todo.push(...(graph[dep] ?? []));
        continue;
      }
      if (b === a) continue;
      if (!edges.has(a)) edges.set(a, new Map());
      if (!edges.get(a).has(b)) edges.get(a).set(b, `${file} -> ${graph[file].includes(dep) ? '' : '... -> '}${dep}`);
    }
  }
  const index = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const component = new Map();
  let next = 0;
  const visit = (v) => {
    index.set(v, next);
    low.set(v, next);
    next += 1;
    stack.push(v);
    onStack.add(v);
    for (const w of edges.get(v)?.keys() ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v), low.get(w)));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v), index.get(w)));
    }
    if (low.get(v) === index.get(v)) {
      let w;
      do {
        w = stack.pop();
        onStack.delete(w);
        component.set(w, v);
      } while (w !== v);
    }
  };
  for (const v of edges.keys()) if (!index.has(v)) visit(v);
  const onCircles = [];
  for (const [a, targets] of edges)
    for (const [b, example] of targets) if (component.get(a) === component.get(b)) onCircles.push({ edge: `${a} -> ${b}`, example });
  return onCircles;
}
let folderEdges = 0;

let circles = 0;
for (const pkg of PACKAGES) {
  const result = await madge(path.join(root, pkg, 'src'), {
    baseDir: path.join(root, pkg, 'src'),
    fileExtensions: ['ts', 'tsx'],
    tsConfig: path.join(root, pkg, 'tsconfig.json'),
    excludeRegExp: [/generated[\\/]/, /\.d\.ts$/],
    detectiveOptions: { ts: { skipTypeImports: false }, tsx: { skipTypeImports: false } },
  });
  for (const circle of result.circular()) {
    circles += 1;
    console.error(`${pkg}/src: import circle: ${[...circle, circle[0]].join(' -> ')}`);
  }
  const pattern = FOLDERS[pkg];
  if (!pattern) continue;
  for (const { edge, example } of edgesOnCircles(result.obj(), (file) => file.match(pattern)?.[1] ?? null)) {
    folderEdges += 1;
    console.error(`${pkg}/src: folder import circle through ${edge} (${example}): import the other way, move what both need lower, or register`);
  }
}
if (circles > 0) console.error(`\n${circles} import circle(s). Move what both sides need (often a type) into a module of its own.`);
if (folderEdges > 0) console.error(`\n${folderEdges} folder import(s) on a circle of folders.`);
if (circles > 0 || folderEdges > 0) process.exit(1);
console.log(`no import circles in ${PACKAGES.length} packages, of files or of folders (${Object.keys(FOLDERS).join(', ')})`);
