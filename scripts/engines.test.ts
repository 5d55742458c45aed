import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import semver from 'semver';
import { describe, expect, it } from 'vitest';

/**
 * The project says it runs on Node 20.19 or newer (package.json "engines"); every package the
 * lockfile installs must say so too, so that `engine-strict=false` hides nothing
 * (docs/decisions/010-node-20-dependencies.md).
 */
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const lock = fs.readFileSync(path.join(root, 'pnpm-lock.yaml'), 'utf8');
const ours = (JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as { engines: { node: string } }).engines.node;

function lockedEngines(): { name: string; node: string }[] {
  const packages = lock.slice(lock.indexOf('\npackages:\n'), lock.indexOf('\nsnapshots:\n'));
  return [...packages.matchAll(/^ {2}'?([^\s']+)'?:\n((?: {4}[^\n]*\n)+)/gm)].flatMap(([, name, body]) => {
    const node = /engines: \{node: '?([^'}]+?)'?\}/.exec(body!)?.[1];
    return node ? [{ name: name!, node }] : [];
  });
}

describe('declared Node versions', () => {
  it('reads the engines of the locked packages', () => expect(lockedEngines().length).toBeGreaterThan(100));

  it('has every locked package accept the oldest Node the project supports', () => {
    const oldest = semver.minVersion(ours)!.version;
    expect(oldest).toBe('20.19.0');
    expect(
      lockedEngines()
        .filter((p) => !semver.satisfies(oldest, p.node))
        .map((p) => `${p.name} needs Node ${p.node}`),
    ).toEqual([]);
  });
});
