#!/usr/bin/env node
// No import circles, type-only imports included (part of `pnpm lint`): a circle is where a
// newcomer cannot tell which module comes first, and a type-only one is how the last one began
// (context.ts -> jobs/queues.ts -> the job payloads in the modules -> context.ts). ESLint's
// import-x/no-cycle skips type imports, so the import graph of each package is read here with
// TypeScript's own scanner (`preProcessFile`: every import, export-from, `import()` and
// `import type`) and resolver (the package's tsconfig, its `paths` included). madge did this in
// 39 s of CPU and missed the web's `@/` imports (391 of its files' edges); this takes 4 s.
// Prisma's generated client is left out (its files refer to each other by design).
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

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
  const component = components([...edges.keys()], (v) => edges.get(v)?.keys() ?? []);
  const onCircles = [];
  for (const [a, targets] of edges)
    for (const [b, example] of targets) if (component.get(a) === component.get(b)) onCircles.push({ edge: `${a} -> ${b}`, example });
  return onCircles;
}

const LEFT_OUT = (file) => /\.d\.ts$/.test(file) || /(^|\/)generated\//.test(file);

/** The import graph of a package's src/: each file (relative to src/) and the files of src/ it imports. */
function importGraph(pkg) {
  const src = path.join(root, pkg, 'src');
  const config = ts.getParsedCommandLineOfConfigFile(
    path.join(root, pkg, 'tsconfig.json'),
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (d) => {
        throw new Error(ts.flattenDiagnosticMessageText(d.messageText, '\n'));
      },
    },
  );
  const cache = ts.createModuleResolutionCache(src, (f) => f, config.options);
  const files = fs
    .readdirSync(src, { recursive: true, encoding: 'utf8' })
    .map((f) => f.split(path.sep).join('/'))
    .filter((f) => /\.tsx?$/.test(f) && !LEFT_OUT(f));
  const graph = {};
  for (const file of files) {
    const from = path.join(src, file);
    const deps = new Set();
    for (const { fileName } of ts.preProcessFile(fs.readFileSync(from, 'utf8'), true, true).importedFiles) {
      const resolved = ts.resolveModuleName(fileName, from, config.options, ts.sys, cache).resolvedModule;
      if (!resolved || resolved.isExternalLibraryImport) continue;
      const to = path.relative(src, resolved.resolvedFileName).split(path.sep).join('/');
      // Another package's files are that package's graph.
      if (!to.startsWith('../') && !LEFT_OUT(to)) deps.add(to);
    }
    graph[file] = [...deps].sort();
  }
  return graph;
}

/** The file circles of a graph: each strongly connected component of more than one file (or a file importing itself), as one circle through it. */
function fileCircles(graph) {
  const component = components(Object.keys(graph).sort(), (v) => graph[v] ?? []);
  const members = new Map();
  for (const [file, root] of component) members.set(root, [...(members.get(root) ?? []), file]);
  return [...members.entries()]
    .filter(([root, files]) => files.length > 1 || (graph[root] ?? []).includes(root))
    .map(([root, files]) => circleThrough(graph, root, new Set(files)));
}

/** The strongly connected components of a graph (Tarjan): each node and the root of its component. */
function components(nodes, next) {
  const index = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const component = new Map();
  let count = 0;
  const visit = (v) => {
    index.set(v, count);
    low.set(v, count);
    count += 1;
    stack.push(v);
    onStack.add(v);
    for (const w of next(v)) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v), low.get(w)));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v), index.get(w)));
    }
    if (low.get(v) !== index.get(v)) return;
    let w;
    do {
      w = stack.pop();
      onStack.delete(w);
      component.set(w, v);
    } while (w !== v);
  };
  for (const v of nodes) if (!index.has(v)) visit(v);
  return component;
}

/** One circle from `start` back to it, inside its component (the shortest, breadth first). */
function circleThrough(graph, start, members) {
  const before = new Map([[start, null]]);
  const queue = [start];
  while (queue.length) {
    const v = queue.shift();
    for (const w of graph[v] ?? []) {
      if (!members.has(w)) continue;
      if (w === start) {
        const circle = [];
        for (let at = v; at !== null; at = before.get(at)) circle.unshift(at);
        return circle;
      }
      if (!before.has(w)) {
        before.set(w, v);
        queue.push(w);
      }
    }
  }
  return [start];
}

let folderEdges = 0;

let circles = 0;
for (const pkg of PACKAGES) {
  const graph = importGraph(pkg);
  for (const circle of fileCircles(graph)) {
    circles += 1;
    console.error(`${pkg}/src: import circle: ${[...circle, circle[0]].join(' -> ')}`);
  }
  const pattern = FOLDERS[pkg];
  if (!pattern) continue;
  for (const { edge, example } of edgesOnCircles(graph, (file) => file.match(pattern)?.[1] ?? null)) {
    folderEdges += 1;
    console.error(`${pkg}/src: folder import circle through ${edge} (${example}): import the other way, move what both need lower, or register`);
  }
}
if (circles > 0) console.error(`\n${circles} import circle(s). Move what both sides need (often a type) into a module of its own.`);
if (folderEdges > 0) console.error(`\n${folderEdges} folder import(s) on a circle of folders.`);
if (circles > 0 || folderEdges > 0) process.exit(1);
console.log(`no import circles in ${PACKAGES.length} packages, of files or of folders (${Object.keys(FOLDERS).join(', ')})`);
