// The functions a V8 CPU profile (`node --cpu-prof`) spent most time in, by self time and by
// package (node_modules/<name>, the bundle, node internals): `node bench/cpu-profile-top.mjs <file.cpuprofile> [rows]`.
import fs from 'node:fs';

const [file, rowsArg] = process.argv.slice(2);
const profile = JSON.parse(fs.readFileSync(file, 'utf8'));
const rows = Number(rowsArg ?? 25);
const dt = new Map();
for (let i = 0; i < profile.samples.length; i++) dt.set(profile.samples[i], (dt.get(profile.samples[i]) ?? 0) + (profile.timeDeltas[i] ?? 0));
const total = [...dt.values()].reduce((a, b) => a + b, 0);
const byFn = new Map();
const byPkg = new Map();
for (const node of profile.nodes) {
  const us = dt.get(node.id) ?? 0;
  if (!us) continue;
  const { functionName, url, lineNumber } = node.callFrame;
  const pkg =
    /.*node_modules\/(@[^/]+\/[^/]+|[^/]+)/.exec(url)?.[1] ??
    (url.includes('/dist/') ? 'bundle' : url.startsWith('node:') ? 'node' : url ? url.split('/').slice(-2).join('/') : `(${functionName || 'native'})`);
  const key = `${functionName || '(anonymous)'} ${url.split('/').slice(-1)[0] ?? ''}:${lineNumber + 1}`;
  byFn.set(key, (byFn.get(key) ?? 0) + us);
  byPkg.set(pkg, (byPkg.get(pkg) ?? 0) + us);
}
const pct = (us) => `${((100 * us) / total).toFixed(1)}%`;
console.log(`total ${(total / 1e6).toFixed(1)} s sampled`);
console.log('\nby package:');
for (const [k, us] of [...byPkg].sort((a, b) => b[1] - a[1]).slice(0, 12)) console.log(`  ${pct(us).padStart(6)} ${(us / 1e6).toFixed(2)} s  ${k}`);
console.log('\nby function (self):');
for (const [k, us] of [...byFn].sort((a, b) => b[1] - a[1]).slice(0, rows)) console.log(`  ${pct(us).padStart(6)} ${(us / 1e6).toFixed(2)} s  ${k}`);
