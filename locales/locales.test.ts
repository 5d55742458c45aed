import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { APP_ERROR_CODES, LANGUAGES, SOURCE_LANGUAGE } from '@console/shared';

/**
 * Every language is complete and really translated: the same keys as zh-CN (the source), the
 * same {{placeholders}}, no empty text, written in its own script, and never English left in
 * another locale. Words that are the same in a language (an "ID", an "OK") are listed below.
 */
const dir = path.dirname(fileURLToPath(import.meta.url));
type Tree = { [key: string]: string | Tree };
const load = (header: string) => JSON.parse(fs.readFileSync(path.join(dir, `${header}.json`), 'utf8')) as Tree;

function flatten(tree: Tree, prefix = ''): Map<string, string> {
  const out = new Map<string, string>();
  for (const [k, v] of Object.entries(tree)) {
    const key = prefix ? `${prefix}.${k}` : k;
    if (typeof v === 'string') out.set(key, v);
    else for (const [kk, vv] of flatten(v, key)) out.set(kk, vv);
  }
  return out;
}

const placeholders = (s: string) => [...s.matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((m) => m[1]).sort();

/**
 * Plural texts are i18next's `key_<category>` families: each language has exactly the categories
 * its plural rules use (zh-CN `_other` only; Arabic `_zero` ... `_other`), and is compared by family.
 */
const PLURAL = /_(zero|one|two|few|many|other)$/;
const family = (key: string) => key.replace(PLURAL, '');
const categories = (header: string) => [...new Intl.PluralRules(header).resolvedOptions().pluralCategories].sort();
/** Keys with plural suffixes folded into their family (`x_one`, `x_other` -> `x`). */
const families = (messages: Map<string, string>) => new Set([...messages.keys()].map(family));
/** The zh-CN text a key of another language is checked against (its `_other` form for a plural). */
const sourceOf = (key: string) => source.get(key) ?? source.get(`${family(key)}_other`);

/** Keys whose text may equal the English one in these languages, because that is how the language writes it. */
const SAME_AS_ENGLISH: Record<string, string[]> = {
  de: ['customer.id', 'customer.email', 'customer.mobile', 'common.confirm', 'layout.home', 'customer.state', 'customer.nickname', 'frontDesk.detail.unlockSources.gateway', 'guestMessages.sms', 'guestMessages.body', 'webhooks.title', 'auditLog.areas.webhook'],
  fr: ['customer.id', 'common.confirm', 'customer.mobile', 'layout.notifications', 'frontDesk.detail.unlockSources.console', 'orders.columns.kind', 'orders.balance.cash.recharges', 'orders.balance.cash.corrections', 'orders.balance.cash.net', 'pagination.navigation', 'guestMessages.sms', 'guestMessages.email', 'guestMessages.variables', 'webhooks.title', 'auditLog.areas.webhook', 'webhooks.form.descriptionLabel', 'housekeeping.photo', 'housekeeping.note'],
  es: ['customer.id', 'common.confirm', 'customer.email', 'stays.no', 'guestMessages.sms', 'guestMessages.variables', 'webhooks.title', 'auditLog.areas.webhook'],
  pt: ['customer.id', 'common.confirm', 'customer.email', 'frontDesk.detail.unlockSources.gateway', 'frontDesk.detail.unlockSources.console', 'guestMessages.sms', 'guestMessages.email', 'webhooks.title', 'auditLog.areas.webhook'],
  it: ['customer.id', 'common.confirm', 'customer.email', 'customer.nickname', 'layout.home', 'stays.no', 'frontDesk.detail.unlockSources.gateway', 'frontDesk.detail.unlockSources.console', 'layout.account', 'guestMessages.sms', 'guestMessages.email', 'webhooks.title', 'auditLog.areas.webhook'],
};

/** The script each non-Latin language must be written in (a few characters of it at least). */
const SCRIPT: Record<string, RegExp> = {
  'zh-CN': /\p{Script=Han}/u,
  'zh-TW': /\p{Script=Han}/u,
  ja: /[\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Han}]/u,
  ko: /\p{Script=Hangul}/u,
  'ru-RU': /\p{Script=Cyrillic}/u,
  ar: /\p{Script=Arabic}/u,
};
/** Texts that carry no words of their own (a number, a code) need not contain the script. */
const SCRIPT_EXEMPT = new Set(['customer.id']);
/**
 * A text made only of placeholders and punctuation (the audit log's "{{kind}} · {{name}}") has no
 * words to translate or to write in a script: it may be the same in every language.
 */
const wordless = (text: string) => !/\p{L}/u.test(text.replace(/\{\{\s*\w+\s*\}\}/g, ''));

const source = flatten(load(SOURCE_LANGUAGE));
const english = flatten(load('en'));

describe('locales', () => {
  it('has one file per language of spec §1', () => {
    const files = fs.readdirSync(dir).filter((f) => f.endsWith('.json') && !['package.json', 'tsconfig.json'].includes(f)).map((f) => f.replace(/\.json$/, '')).sort();
    expect(files).toEqual(LANGUAGES.map((l) => l.header).sort());
  });

  it('has a message for every application error code', () => {
    for (const code of APP_ERROR_CODES) expect(source.has(`errors.${code}`), code).toBe(true);
  });

  describe.each(LANGUAGES.map((l) => l.header))('%s', (header) => {
    const messages = flatten(load(header));

    it('has exactly the keys of zh-CN, and every plural category of its language', () => {
      const ours = families(messages);
      const theirs = families(source);
      expect([...ours].filter((k) => !theirs.has(k)), 'keys not in zh-CN').toEqual([]);
      expect([...theirs].filter((k) => !ours.has(k)), 'missing keys').toEqual([]);
      const pluralFamilies = new Set([...source.keys()].filter((k) => PLURAL.test(k)).map(family));
      for (const f of pluralFamilies) {
        const present = [...messages.keys()].filter((k) => family(k) === f && PLURAL.test(k)).map((k) => PLURAL.exec(k)![1]).sort();
        expect(present, `${f}: plural forms of ${header}`).toEqual(categories(header));
      }
    });

    it('keeps every {{placeholder}} and leaves no text empty', () => {
      for (const [key, value] of messages) {
        expect(value.trim(), key).not.toBe('');
        // A plural form may say "one" in words instead of {{count}}.
        const expected = placeholders(sourceOf(key) ?? '').filter((p) => !(PLURAL.test(key) && p === 'count' && !value.includes('{{count}}')));
        expect(placeholders(value), key).toEqual(expected);
      }
    });

  });

  it.each(LANGUAGES.map((l) => l.header).filter((h) => h !== 'en'))('%s is translated, not English', (header) => {
    const allowed = new Set(SAME_AS_ENGLISH[header] ?? []);
    const untranslated = [...flatten(load(header))]
      .filter(([key, value]) => value === english.get(key) && !allowed.has(key) && !wordless(value))
      .map(([key]) => key);
    expect(untranslated).toEqual([]);
  });

  it.each(Object.keys(SCRIPT))('%s is written in its own script', (header) => {
    const script = SCRIPT[header]!;
    const foreign = [...flatten(load(header))].filter(([key, value]) => !SCRIPT_EXEMPT.has(key) && !wordless(value) && !script.test(value)).map(([key]) => key);
    expect(foreign).toEqual([]);
  });

  it('writes Traditional Chinese, not Simplified copied over', () => {
    const simplified = flatten(load('zh-CN'));
    const traditional = flatten(load('zh-TW'));
    const copied = [...traditional].filter(([key, value]) => value === simplified.get(key) && /[这说们为个对时后发实过还进关机开门码录]/u.test(value));
    expect(copied.map(([k]) => k)).toEqual([]);
  });
});
