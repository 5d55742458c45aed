import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { AUDIT_ACTIONS, AUDIT_AREAS, AUDIT_AUTOMATIONS, AUDIT_ENTITY_TYPES, AUDIT_JOBS, LANGUAGES, auditActionKey } from '@console/shared';

/**
 * Readable automation in the audit log (issue 27 §11): every action the server writes, every job
 * that acts and every target type has its words in all 12 locales, so that none is ever shown as a
 * code. The actions, job names and entity types are read from the server's code itself (its
 * TypeScript, parsed), not from a list someone keeps: an `action: 'x.y'` added anywhere without
 * its label fails here, in every language it lacks.
 */

const here = path.dirname(fileURLToPath(import.meta.url));
const serverSrc = path.resolve(here, '../..');
const localesDir = path.resolve(here, '../../../../../locales');

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) return ['generated', 'test', 'node_modules'].includes(entry.name) ? [] : sourceFiles(file);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [file] : [];
  });
}

interface Found {
  /** Literal values, each with where it was written. */
  values: Map<string, string>;
  /** Template literals (`order.${kind}`), as patterns an action must match. */
  patterns: Map<string, string>;
}

/** What the server's code writes as audit actions, job names and entity types. */
function scan(): { actions: Found; jobs: Found; entityTypes: Found } {
  const found = () => ({ values: new Map<string, string>(), patterns: new Map<string, string>() });
  const actions = found();
  const jobs = found();
  const entityTypes = found();
  for (const file of sourceFiles(serverSrc)) {
    const source = ts.createSourceFile(file, fs.readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
    const where = (node: ts.Node) => `${path.relative(serverSrc, file)}:${source.getLineAndCharacterOfPosition(node.getStart()).line + 1}`;
    /** The strings an expression can be: literals, both branches of a condition, a template as a pattern. */
    const collect = (into: Found, expression: ts.Expression) => {
      if (ts.isStringLiteral(expression) || ts.isNoSubstitutionTemplateLiteral(expression)) into.values.set(expression.text, where(expression));
      else if (ts.isConditionalExpression(expression)) [expression.whenTrue, expression.whenFalse].forEach((e) => collect(into, e));
      else if (ts.isParenthesizedExpression(expression) || ts.isAsExpression(expression) || ts.isSatisfiesExpression(expression))
        collect(into, expression.expression);
      else if (ts.isTemplateExpression(expression)) {
        const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
        const pattern = escape(expression.head.text) + expression.templateSpans.map((span) => `[^]+${escape(span.literal.text)}`).join('');
        into.patterns.set(`^${pattern}$`, where(expression));
      }
    };
    const visit = (node: ts.Node) => {
      if (ts.isPropertyAssignment(node) && ts.isIdentifier(node.name)) {
        if (node.name.text === 'action') collect(actions, node.initializer);
        if (node.name.text === 'entityType') collect(entityTypes, node.initializer);
        if (node.name.text === 'job') collect(jobs, node.initializer);
      }
      if (ts.isCallExpression(node) && ts.isIdentifier(node.expression) && node.expression.text === 'jobContext' && node.arguments[1])
        collect(jobs, node.arguments[1]);
      // A table of job names (`{ due: 'stay.due', ... } satisfies Record<string, TAuditJob>`).
      if (ts.isSatisfiesExpression(node) && node.type.getText(source).includes('TAuditJob')) {
        const table = ts.isAsExpression(node.expression) ? node.expression.expression : node.expression;
        if (ts.isObjectLiteralExpression(table))
          for (const property of table.properties) if (ts.isPropertyAssignment(property)) collect(jobs, property.initializer);
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return { actions, jobs, entityTypes };
}

type Tree = { [key: string]: string | Tree };
const locales = new Map(LANGUAGES.map((l) => [l.header, JSON.parse(fs.readFileSync(path.join(localesDir, `${l.header}.json`), 'utf8')) as Tree]));
const text = (tree: Tree, key: string): string | undefined => {
  const value = key.split('.').reduce<Tree | string | undefined>((node, part) => (typeof node === 'object' ? node[part] : undefined), tree);
  return typeof value === 'string' && value.trim() !== '' ? value : undefined;
};
/** The keys of `keys` that a locale has no text for, by language (only the languages missing some). */
const missing = (keys: string[]) =>
  Object.fromEntries(
    [...locales].map(([header, tree]) => [header, keys.filter((key) => text(tree, key) === undefined)] as const).filter(([, keys]) => keys.length > 0),
  );

const { actions, jobs, entityTypes } = scan();
const codeActions = [...actions.values.keys()].sort();
const codeJobs = [...jobs.values.keys()].sort();
const codeEntityTypes = [...entityTypes.values.keys()].sort();

describe('the audit log in words', () => {
  it('reads the actions, jobs and target types from the code', () => {
    // The scan itself works: the actions of every area, the jobs of the stays, the feeds and the locks.
    expect(codeActions.length).toBeGreaterThan(120);
    expect(codeActions).toEqual(expect.arrayContaining(['stay.accessIssue', 'stay.offlineCode', 'order.closeDay', 'feed.read', 'accessRule.set']));
    expect(codeJobs).toEqual(expect.arrayContaining(['stay.issue', 'stay.expire', 'feed.read', 'locks.callback', 'export']));
    expect(codeEntityTypes).toEqual(expect.arrayContaining(['Stay', 'AccessRule', 'CalendarFeed', 'DayClose']));
    expect([...actions.patterns.keys()].length).toBeGreaterThan(0);
  });

  it('labels every action the code writes, in every locale', () => {
    const written = [...codeActions, ...AUDIT_ACTIONS];
    // Each action the code writes is one the log knows (its area named, its label keyed)...
    expect(codeActions.filter((a) => !(AUDIT_ACTIONS as readonly string[]).includes(a)).map((a) => `${a} (${actions.values.get(a)})`)).toEqual([]);
    // ... an action made of parts (`order.${kind}`) is some of them ...
    for (const [pattern, at] of actions.patterns)
      expect(
        AUDIT_ACTIONS.some((a) => new RegExp(pattern).test(a)),
        `${pattern} (${at})`,
      ).toBe(true);
    expect(written.filter((a) => !(AUDIT_AREAS as readonly string[]).includes(a.split('.')[0]!))).toEqual([]);
    // ... and each has its label in all 12 languages.
    expect(missing([...new Set(written)].map(auditActionKey))).toEqual({});
  });

  it('names every job that acts, in every locale, by the automation it is part of', () => {
    expect(codeJobs.filter((j) => !Object.hasOwn(AUDIT_JOBS, j)).map((j) => `${j} (${jobs.values.get(j)})`)).toEqual([]);
    expect(jobs.patterns.size, `job names made of parts: ${[...jobs.patterns.values()].join(', ')}`).toBe(0);
    expect(missing(AUDIT_AUTOMATIONS.map((kind) => `auditLog.automation.${kind}`))).toEqual({});
  });

  it('names every target type the code writes, and every area, in every locale', () => {
    expect(codeEntityTypes.filter((t) => !(AUDIT_ENTITY_TYPES as readonly string[]).includes(t)).map((t) => `${t} (${entityTypes.values.get(t)})`)).toEqual([]);
    expect(missing([...new Set([...codeEntityTypes, ...AUDIT_ENTITY_TYPES])].map((type) => `auditLog.targets.${type}`))).toEqual({});
    expect(missing(AUDIT_AREAS.map((area) => `auditLog.areas.${area}`))).toEqual({});
  });
});
