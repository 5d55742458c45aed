import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { LEDGER_ACCOUNTS, MONEY_METHODS } from '@console/shared';
import { EXPORT_FORMATS } from '@console/shared/export';
import { permissionAreas } from '@/features/api-keys/api-key-permissions';

/**
 * Every text the web code can name exists in every language (issue 39 §9: the API keys page showed
 * `apiKeys.areas.housekeeping` raw in all 12). The keys named literally (`t('a.b')`, `i18nKey="a.b"`)
 * are read from the code; the keys made of a prefix and a value (`t(\`apiKeys.areas.${area}\`)`) are
 * checked for every value the code can give them, listed below.
 */
const root = path.resolve(import.meta.dirname, '../../..');
const src = path.join(root, 'apps/web/src');
const locales = fs
  .readdirSync(path.join(root, 'locales'))
  .filter((f) => /^[a-z]{2}(-[A-Z]{2})?\.json$/.test(f))
  .map((f) => [f.replace(/\.json$/, ''), JSON.parse(fs.readFileSync(path.join(root, 'locales', f), 'utf8')) as Record<string, unknown>] as const);

/** Whether `key` names a text (or its plural forms) in `tree`. */
function has(tree: Record<string, unknown>, key: string): boolean {
  const parts = key.split('.');
  let node: unknown = tree;
  for (const part of parts.slice(0, -1)) node = (node as Record<string, unknown> | undefined)?.[part];
  const last = parts.at(-1)!;
  const parent = node as Record<string, unknown> | undefined;
  return typeof parent?.[last] === 'string' || typeof parent?.[`${last}_other`] === 'string';
}

function codeFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) return codeFiles(full);
    return /\.tsx?$/.test(e.name) && !/\.(test|gen)\.tsx?$/.test(e.name) ? [full] : [];
  });
}

/** The keys the code names literally, with the first file naming each. */
function literalKeys(): Map<string, string> {
  const keys = new Map<string, string>();
  for (const file of codeFiles(src)) {
    const text = fs.readFileSync(file, 'utf8');
    for (const match of text.matchAll(/\b(?:t|i18next\.t)\(\s*['"]([a-zA-Z][\w-]*(?:\.[\w-]+)+)['"]|i18nKey=["']([a-zA-Z][\w-]*(?:\.[\w-]+)+)["']/g)) {
      const key = match[1] ?? match[2]!;
      if (!keys.has(key)) keys.set(key, path.relative(root, file));
    }
  }
  return keys;
}

/** Keys made of a prefix and a value: every value the code can give them. */
const ENUMERATED: [string, string[]][] = [
  ['apiKeys.areas', permissionAreas().map((a) => a.area)],
  ['apiKeys.areaHints', permissionAreas().map((a) => a.area)],
  // The trial balance (features/journal): its accounts, what moved a folio's balance, the export's files and counts.
  ['journal.accounts', [...LEDGER_ACCOUNTS]],
  ['journal.sources', ['order', 'deposit_to_guest', 'guest_to_receivable']],
  ['orders.methods', [...MONEY_METHODS]],
  ['export.formats', [...EXPORT_FORMATS]],
  ['export.tallies', ['unmapped']],
];

describe('the texts the web code names', () => {
  it('are found by the scan (it reads the code)', () => {
    expect(literalKeys().size).toBeGreaterThan(1_000);
  });

  it.each(locales.map(([lang, tree]) => ({ lang, tree })))('all exist in $lang', ({ tree }) => {
    const missing = [...literalKeys()].filter(([key]) => !has(tree, key)).map(([key, file]) => `${key} (${file})`);
    for (const [prefix, values] of ENUMERATED) for (const value of values) if (!has(tree, `${prefix}.${value}`)) missing.push(`${prefix}.${value}`);
    expect(missing).toEqual([]);
  });
});
