import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BrowserContext, Page } from 'playwright-core';
import { expect } from 'vitest';

/**
 * axe-core in every browser test (issue 18 §5, docs/accessibility.md): each screenshot is checked
 * where it is taken, and every screen a test passes through is checked once it has settled; any
 * violation fails the test that showed it, with the rule, its impact, the element and the screen.
 */

const axeSource = fs.readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** What is checked: WCAG 2.0, 2.1 and 2.2 at levels A and AA, and axe's best practices. */
export const AXE_OPTIONS = {
  runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22a', 'wcag22aa', 'best-practice'] },
  // Still marked experimental in axe 4.14, so off unless asked for: a control's accessible name
  // contains the text it shows (WCAG 2.5.3, "label in name").
  rules: { 'label-content-name-mismatch': { enabled: true } },
  resultTypes: ['violations'],
} as const;

/**
 * The open dialogs (modal: Radix hides the page behind them from assistive technology). With one
 * open, axe reads the dialogs and the toasts only: the page behind was checked as a screen of its
 * own before the dialog opened, and a whole page's run is the costliest thing a browser test does
 * (a file of dialogs took 40% less time so).
 */
const OPEN_DIALOGS = '[role="dialog"][data-state="open"], [role="alertdialog"][data-state="open"]';

export type A11yViolation = { rule: string; impact: string; help: string; nodes: { target: string; summary: string }[] };
type Report = { screen: string; url: string; lang: string; violations: A11yViolation[] };

/** Violations that the check of a settled screen found, not yet reported, by context. */
const pending = new Map<BrowserContext, Report[]>();
const closed = new Set<BrowserContext>();
/** Screens (route pattern, language, open dialogs) already checked in this test file: each is checked once. */
const checkedScreens = new Set<string>();

export class A11yError extends Error {
  override name = 'A11yError';
}

/**
 * `E2E_AXE=report`: a survey, not a gate: violations are appended to test-output/e2e/axe-violations.jsonl
 * and fail nothing, so that one run lists every screen's (the default fails the test at the first).
 */
const reportOnly = process.env.E2E_AXE === 'report';
const surveyFile = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'test-output', 'e2e', 'axe-violations.jsonl');

function fail(reports: Report[]) {
  if (!reports.length) return;
  if (!reportOnly) throw new A11yError(formatReports(reports));
  fs.mkdirSync(path.dirname(surveyFile), { recursive: true });
  const test = expect.getState().currentTestName ?? '';
  for (const report of reports) fs.appendFileSync(surveyFile, `${JSON.stringify({ test, ...report })}\n`);
}

export function formatReports(reports: Report[]): string {
  const count = reports.reduce((n, r) => n + r.violations.reduce((m, v) => m + v.nodes.length, 0), 0);
  const lines = [`axe-core found ${count} accessibility violation${count === 1 ? '' : 's'} (docs/accessibility.md):`];
  for (const report of reports) {
    lines.push(`  screen "${report.screen}" (${report.url}, lang ${report.lang}):`);
    for (const v of report.violations) {
      lines.push(`    [${v.impact}] ${v.rule}: ${v.help}`);
      for (const node of v.nodes.slice(0, 5)) lines.push(`        ${node.target}\n          ${node.summary.replace(/\n\s*/g, ' ')}`);
      if (v.nodes.length > 5) lines.push(`        and ${v.nodes.length - 5} more like these`);
    }
  }
  return lines.join('\n');
}

/** A route with its ids left out: /room/12 and /room/13 are one screen. */
function screenKey(url: string, lang: string, dialogs: number) {
  const { pathname } = new URL(url);
  return `${pathname.replace(/\/\d+(?=\/|$)/g, '/:id')}|${lang}|${dialogs}`;
}

/** The axe run inside the page (its source added here, or by the automatic check, when the document has none yet). */
async function runAxeInPage(page: Page): Promise<{ url: string; lang: string; dialogs: number; violations: A11yViolation[] }> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(axeSource);
  return page.evaluate(
    async ({ options, openDialogs }) => {
      type Axe = {
        run: (
          context: Document | { include: Element[] },
          options: unknown,
        ) => Promise<{ violations: { id: string; impact: string; help: string; nodes: { target: unknown[]; failureSummary?: string }[] }[] }>;
      };
      const axe = (window as unknown as { axe: Axe & { _running?: boolean } }).axe;
      // Colours are measured as they end up: a toast or a dialog still fading in is half transparent
      // (its contrast then depends on the moment). Finite animations and transitions are waited for,
      // up to a second; spinners (infinite) are not. And a toast that comes or starts to leave while axe measures (its time on screen may end
      // during the run) was measured half faded: such a run is thrown away and made again.
      const frame = () => new Promise((resolve) => requestAnimationFrame(() => resolve(undefined)));
      const settled = async () => {
        // A toast just added fades in once sonner marks it mounted: wait for that first (up to a second).
        for (let i = 0; i < 60 && document.querySelector('[data-sonner-toast]:not([data-mounted="true"])'); i++) await frame();
        await frame();
        const finite = document.getAnimations().filter((a) => Number.isFinite(a.effect?.getComputedTiming().endTime ?? Infinity));
        await Promise.race([Promise.all(finite.map((a) => a.finished.catch(() => undefined))), new Promise((resolve) => setTimeout(resolve, 1_000))]);
      };
      // What axe reads: the page, or its open dialogs and toasts (OPEN_DIALOGS).
      const scope = () => {
        const dialogs = Array.from(document.querySelectorAll(openDialogs));
        return dialogs.length ? { include: [...dialogs, ...Array.from(document.querySelectorAll('[data-sonner-toaster]'))] } : document;
      };
      const isToast = (node: Node) => node instanceof Element && (node.matches('[data-sonner-toaster]') || node.querySelector('[data-sonner-toast]') !== null);
      const toastChanges = (record: MutationRecord) =>
        (record.target instanceof Element ? record.target : record.target.parentElement)?.closest('[data-sonner-toaster]') != null ||
        [...Array.from(record.addedNodes), ...Array.from(record.removedNodes)].some(isToast);
      let result: Awaited<ReturnType<Axe['run']>>;
      for (let attempt = 1; ; attempt++) {
        await settled();
        let toastsMoved = false;
        const observer = new MutationObserver((records) => (toastsMoved ||= records.some(toastChanges)));
        observer.observe(document.body, { subtree: true, childList: true, attributes: true });
        // The automatic check of a settled screen (`watchA11y`) may have started in this page while the
        // screen settled: axe runs one at a time, so wait for it here, with no await between the
        // check and the call (a wait before \`settled\` let a check begin in between: "Axe is already running").
        while (axe._running) await new Promise((resolve) => setTimeout(resolve, 50));
        try {
          result = await axe.run(scope(), options);
        } finally {
          toastsMoved ||= observer.takeRecords().some(toastChanges);
          observer.disconnect();
        }
        // A toast on its way out (sonner marks it removed and fades it) or still not opaque was measured
        // mid-fade however long the wait above (on 2 loaded cores a second of frames is not enough):
        // its contrast says nothing at this moment.
        const fading = (target: unknown[]) => {
          const toast = document.querySelector(String(target[0]))?.closest('[data-sonner-toast]');
          return toast != null && (toast.getAttribute('data-removed') === 'true' || getComputedStyle(toast).opacity !== '1');
        };
        result.violations = result.violations
          .map((v) => (v.id === 'color-contrast' ? { ...v, nodes: v.nodes.filter((n) => !fading(n.target)) } : v))
          .filter((v) => v.nodes.length > 0);
        if (!toastsMoved) break;
        if (attempt === 3) {
          // Toasts kept coming and going through three runs: their colours were measured mid-fade, so
          // contrast inside a toast says nothing this time (a settled toast is measured on other screens).
          const inToast = (target: unknown[]) => document.querySelector(String(target[0]))?.closest('[data-sonner-toast]') != null;
          result.violations = result.violations
            .map((v) => (v.id === 'color-contrast' ? { ...v, nodes: v.nodes.filter((n) => !inToast(n.target)) } : v))
            .filter((v) => v.nodes.length > 0);
          break;
        }
      }
      return {
        url: location.href,
        lang: document.documentElement.lang,
        dialogs: document.querySelectorAll('[role="dialog"],[role="alertdialog"]').length,
        violations: result.violations.map((v) => ({
          rule: v.id,
          impact: v.impact,
          help: v.help,
          nodes: v.nodes.map((n) => ({ target: n.target.map(String).join(' '), summary: n.failureSummary ?? '' })),
        })),
      };
    },
    { options: AXE_OPTIONS as unknown as Record<string, unknown>, openDialogs: OPEN_DIALOGS },
  );
}

/**
 * Runs axe on the page as it is now and fails with the list of violations, those of this screen and
 * any that the automatic checks of this page's context found before it.
 */
export async function checkA11y(page: Page, screen: string) {
  const result = await runAxeInPage(page);
  // Checked now: the automatic check (`watchA11y`) need not run axe on this screen again (it did
  // so a second time on every screen a test checks itself, a tenth of a browser file's time).
  checkedScreens.add(screenKey(result.url, result.lang, result.dialogs));
  const reports = takePending(page.context());
  if (result.violations.length) reports.push({ screen, ...result });
  fail(reports);
}

function takePending(context: BrowserContext): Report[] {
  const reports = pending.get(context) ?? [];
  pending.set(context, []);
  return reports;
}

/**
 * Checks every screen the pages of this context show: once the page has settled (no change to the
 * document for half a second, no transition running), axe runs inside it; a run during which the
 * document changed is thrown away and tried again; a page without any text yet is skipped. Each screen (route, language, number of open
 * dialogs) is checked once per test file; what is found fails the test (`afterEach`) or the next
 * `checkA11y`.
 */
export async function watchA11y(context: BrowserContext) {
  // Kept after the context closes (a test's `finally`), until `afterEach` has reported them.
  pending.set(context, []);
  context.on('close', () => closed.add(context));
  await context.exposeBinding('__a11yWanted', (_source, url: string, lang: string, dialogs: number) => !checkedScreens.has(screenKey(url, lang, dialogs)));
  await context.exposeBinding('__a11yReport', (_source, report: { url: string; lang: string; dialogs: number; violations: A11yViolation[] }) => {
    checkedScreens.add(screenKey(report.url, report.lang, report.dialogs));
    if (report.violations.length) pending.get(context)?.push({ screen: `${new URL(report.url).pathname} once settled`, ...report });
  });
  // axe (550 KB) is added to a document only when one of its screens is to be checked: added to every
  // document by the init script, it cost each page load and each new tab about 0.3 s of CPU to parse.
  await context.exposeBinding('__a11yLoadAxe', async (source) => {
    if (!(await source.frame.evaluate(() => 'axe' in window))) await source.frame.evaluate(axeSource);
  });
  await context.addInitScript({
    content: `var __name = globalThis.__name || ((f) => f);\n;(${autoCheck.toString()})(${JSON.stringify(AXE_OPTIONS)}, ${JSON.stringify(OPEN_DIALOGS)});`,
  });
}

/** Runs in every document of a watched context (serialised: nothing from outside its body). */
function autoCheck(options: unknown, openDialogs: string) {
  if (window !== window.top) return;
  type Win = Window & {
    axe: {
      run: (
        context: Document | { include: Element[] },
        options: unknown,
      ) => Promise<{ violations: { id: string; impact: string; help: string; nodes: { target: unknown[]; failureSummary?: string }[] }[] }>;
    };
    __a11yWanted: (url: string, lang: string, dialogs: number) => Promise<boolean>;
    __a11yLoadAxe: () => Promise<void>;
    __a11yReport: (report: unknown) => Promise<void>;
  };
  const w = window as unknown as Win;
  let changes = 0;
  let lastChange = performance.now();
  let running = false;
  let done = '';
  const start = () => {
    new MutationObserver(() => {
      changes++;
      lastChange = performance.now();
    }).observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
  };
  if (document.documentElement) start();
  else document.addEventListener('DOMContentLoaded', start);
  const dialogs = () => document.querySelectorAll('[role="dialog"],[role="alertdialog"]').length;
  const state = () => `${location.href}|${document.documentElement.lang}|${dialogs()}`;
  setInterval(() => {
    if (running || document.readyState !== 'complete' || !document.documentElement.lang) return;
    if (performance.now() - lastChange < 500 || state() === done) return;
    if (document.getAnimations().some((a) => a.playState === 'running' && a.effect?.getTiming().iterations !== Infinity)) return;
    if (document.querySelector('[aria-busy="true"]')) return;
    // A page that shows nothing yet (the app still starting, a route still loading) is no screen.
    if (!document.body?.innerText.trim()) return;
    running = true;
    const before = changes;
    const seen = state();
    const url = location.href;
    const lang = document.documentElement.lang;
    const open = dialogs();
    void (async () => {
      try {
        if (!(await w.__a11yWanted(url, lang, open))) {
          done = seen;
          return;
        }
        if (!('axe' in window)) await w.__a11yLoadAxe();
        if (changes !== before || state() !== seen) return;
        const dialogs = Array.from(document.querySelectorAll(openDialogs));
        const scope = dialogs.length ? { include: [...dialogs, ...Array.from(document.querySelectorAll('[data-sonner-toaster]'))] } : document;
        const result = await w.axe.run(scope, options);
        if (changes !== before || state() !== seen) return;
        done = seen;
        await w.__a11yReport({
          url,
          lang,
          dialogs: open,
          violations: result.violations.map((v) => ({
            rule: v.id,
            impact: v.impact,
            help: v.help,
            nodes: v.nodes.map((n) => ({ target: n.target.map(String).join(' '), summary: n.failureSummary ?? '' })),
          })),
        });
      } catch {
        // The page went away, or axe met a document in the middle of a change: tried again later.
      } finally {
        running = false;
      }
    })();
  }, 250);
}

/** Whatever the automatic checks found during a test fails that test (e2e/setup.ts, after each test). */
export function reportA11y() {
  const reports = [...pending.keys()].flatMap(takePending);
  for (const context of closed) pending.delete(context);
  closed.clear();
  fail(reports);
}

/**
 * A new test file checks each of its screens again, and what a check of the file before it found
 * too late for that file's last test is not its to report (e2e/setup.ts, before each file).
 */
export function forgetA11y() {
  checkedScreens.clear();
  pending.clear();
  closed.clear();
}
