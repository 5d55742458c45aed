// @vitest-environment jsdom
import { createElement } from 'react';
import { act } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ROLE_PERMISSIONS } from '@console/shared';
import { allowedShortcuts, isTypingTarget, pageActionButton, resolveShortcut, shouldIgnore, useShortcuts, type ShortcutId } from './shortcuts';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const key = (init: KeyboardEventInit & { key: string }, target?: EventTarget) => {
  const event = new KeyboardEvent('keydown', { bubbles: true, cancelable: true, ...init });
  if (target) Object.defineProperty(event, 'target', { value: target });
  return event;
};

describe('which key is which shortcut', () => {
  it.each([
    [{ key: 'k', ctrlKey: true }, false, 'search'],
    [{ key: 'k', metaKey: true }, true, 'search'],
    [{ key: '/' }, false, 'search'],
    [{ key: '?', shiftKey: true }, false, 'help'],
    [{ key: 'c' }, false, 'checkIn'],
    [{ key: 'n' }, false, 'newReservation'],
    [{ key: 'p' }, false, 'recordPayment'],
    // A non-Latin layout: the letter by its place.
    [{ key: 'с', code: 'KeyC' }, false, 'checkIn'],
  ] as const)('%j (Mac %s) is %s', (init, isMac, id) => {
    expect(resolveShortcut(key(init), null, isMac)).toEqual({ id });
  });

  it.each([
    [{ key: 'k', metaKey: true }, false],
    [{ key: 'k', ctrlKey: true }, true],
    [{ key: 'k', ctrlKey: true, shiftKey: true }, false],
    [{ key: 'C', shiftKey: true }, false],
    [{ key: 'c', ctrlKey: true }, false],
    [{ key: 'c', altKey: true }, false],
    [{ key: 'x' }, false],
  ] as const)('%j (Mac %s) is none', (init, isMac) => {
    expect(resolveShortcut(key(init), null, isMac)).toBeNull();
  });

  it('takes g then b, t, s or l as a pair', () => {
    expect(resolveShortcut(key({ key: 'g' }), null, false)).toEqual({ pending: 'g' });
    expect(resolveShortcut(key({ key: 'b' }), 'g', false)).toEqual({ id: 'goBoard' });
    expect(resolveShortcut(key({ key: 't' }), 'g', false)).toEqual({ id: 'goToday' });
    expect(resolveShortcut(key({ key: 's' }), 'g', false)).toEqual({ id: 'goStays' });
    expect(resolveShortcut(key({ key: 'l' }), 'g', false)).toEqual({ id: 'goTimeline' });
    expect(resolveShortcut(key({ key: 'b' }), null, false)).toBeNull();
  });
});

describe('never while typing in a field or with a dialog open', () => {
  afterEach(() => {
    document.body.innerHTML = '';
  });

  it.each([
    ['a text input', '<input type="text">'],
    ['a search input', '<input type="search">'],
    ['an input without a type', '<input>'],
    ['a text area', '<textarea></textarea>'],
    ['a select', '<select><option>1</option></select>'],
    ['something editable', '<div contenteditable="true"><span>x</span></div>'],
    ['a combobox', '<div role="combobox" tabindex="0"></div>'],
  ])('%s is typing', (_label, html) => {
    document.body.innerHTML = html;
    const element = document.body.querySelector('span') ?? document.body.firstElementChild!;
    expect(isTypingTarget(element)).toBe(true);
    expect(shouldIgnore(key({ key: '/' }, element), false)).toBe(true);
    expect(shouldIgnore(key({ key: 'c' }, element), false)).toBe(true);
    // Ctrl+K types nothing: it opens the search box from a field too.
    expect(shouldIgnore(key({ key: 'k', ctrlKey: true }, element), false)).toBe(false);
  });

  it.each([
    ['a button', '<button>x</button>'],
    ['a checkbox', '<input type="checkbox">'],
    ['a link', '<a href="/x">x</a>'],
  ])('%s is not typing', (_label, html) => {
    document.body.innerHTML = html;
    expect(isTypingTarget(document.body.firstElementChild)).toBe(false);
    expect(shouldIgnore(key({ key: '/' }, document.body.firstElementChild!), false)).toBe(false);
  });

  it.each([
    ['a dialog', '<div role="dialog"></div>'],
    ['an alert dialog', '<div role="alertdialog"></div>'],
    ['an open menu', '<div role="menu"></div>'],
  ])('%s takes every key', (_label, html) => {
    document.body.innerHTML = `${html}<button id="b">x</button>`;
    const button = document.getElementById('b')!;
    expect(shouldIgnore(key({ key: '/' }, button), false)).toBe(true);
    expect(shouldIgnore(key({ key: 'k', ctrlKey: true }, button), false)).toBe(true);
  });

  it('leaves a key already handled, a repeat and a composition alone', () => {
    const handled = key({ key: 'c' }, document.body);
    handled.preventDefault();
    expect(shouldIgnore(handled, false)).toBe(true);
    expect(shouldIgnore(key({ key: 'c', repeat: true }, document.body), false)).toBe(true);
    expect(shouldIgnore(key({ key: 'c', isComposing: true }, document.body), false)).toBe(true);
  });
});

describe('useShortcuts', () => {
  let root: Root;
  let host: HTMLDivElement;
  const fired: ShortcutId[] = [];

  function Probe() {
    useShortcuts((id) => fired.push(id));
    return createElement('div', null, createElement('input', { id: 'field' }), createElement('button', { id: 'plain' }, 'x'));
  }

  beforeEach(() => {
    fired.length = 0;
    host = document.createElement('div');
    document.body.appendChild(host);
    root = createRoot(host);
    act(() => root.render(createElement(Probe)));
  });
  afterEach(() => {
    act(() => root.unmount());
    document.body.innerHTML = '';
    vi.useRealTimers();
  });

  const press = (target: Element, init: KeyboardEventInit & { key: string }) => {
    const event = new KeyboardEvent('keydown', { bubbles: true, cancelable: true, ...init });
    target.dispatchEvent(event);
    return event;
  };

  it('fires on the page and prevents the key, never in a field', () => {
    const slash = press(document.getElementById('plain')!, { key: '/' });
    expect(fired).toEqual(['search']);
    expect(slash.defaultPrevented).toBe(true);
    const typed = press(document.getElementById('field')!, { key: '/' });
    press(document.getElementById('field')!, { key: '?' });
    press(document.getElementById('field')!, { key: 'c' });
    expect(fired).toEqual(['search']);
    expect(typed.defaultPrevented).toBe(false);
    press(document.body, { key: '?' });
    expect(fired).toEqual(['search', 'help']);
  });

  it('never while a dialog is open', () => {
    const dialog = document.createElement('div');
    dialog.setAttribute('role', 'dialog');
    document.body.appendChild(dialog);
    press(document.body, { key: 'c' });
    press(document.body, { key: 'k', ctrlKey: true });
    expect(fired).toEqual([]);
    dialog.remove();
    press(document.body, { key: 'c' });
    expect(fired).toEqual(['checkIn']);
  });

  it('takes a pair only when its keys come one after the other, not typed into a field between', () => {
    press(document.body, { key: 'g' });
    press(document.body, { key: 't' });
    expect(fired).toEqual(['goToday']);
    press(document.body, { key: 'g' });
    press(document.getElementById('field')!, { key: 'b' });
    press(document.body, { key: 'b' });
    expect(fired).toEqual(['goToday']);
  });
});

describe('what a member may not use (issue 39 §8)', () => {
  it('offers an attendant no search, and leaves Ctrl+K and / to the page', () => {
    const attendant = allowedShortcuts(ROLE_PERMISSIONS.housekeeping);
    expect(attendant.some((s) => s.id === 'search')).toBe(false);
    expect(attendant.some((s) => s.id === 'help')).toBe(true);
    expect(allowedShortcuts(ROLE_PERMISSIONS.staff).filter((s) => s.id === 'search')).toHaveLength(2);
    expect(allowedShortcuts(ROLE_PERMISSIONS.housekeeping_supervisor).some((s) => s.id === 'search')).toBe(true);
    expect(allowedShortcuts(undefined).some((s) => s.id === 'search')).toBe(false);
    expect(resolveShortcut(key({ key: 'k', ctrlKey: true }), null, false, attendant)).toBeNull();

    const fired: ShortcutId[] = [];
    const host = document.createElement('div');
    document.body.appendChild(host);
    const root = createRoot(host);
    act(() =>
      root.render(
        createElement(() => {
          useShortcuts((id) => fired.push(id), attendant);
          return null;
        }),
      ),
    );
    const press = (init: KeyboardEventInit & { key: string }) => {
      const event = new KeyboardEvent('keydown', { bubbles: true, cancelable: true, ...init });
      document.body.dispatchEvent(event);
      return event;
    };
    expect(press({ key: 'k', ctrlKey: true }).defaultPrevented).toBe(false);
    expect(press({ key: '/' }).defaultPrevented).toBe(false);
    press({ key: '?' });
    expect(fired).toEqual(['help']);
    act(() => root.unmount());
    host.remove();
  });
});

describe("the page's own button", () => {
  afterEach(() => {
    document.body.innerHTML = '';
  });

  it('is found by its name, not when disabled or hidden', () => {
    document.body.innerHTML = `
      <button data-shortcut="check-in" disabled id="a">a</button>
      <div hidden><button data-shortcut="check-in" id="b">b</button></div>
      <button data-shortcut="check-in" id="c">c</button>`;
    expect(pageActionButton('check-in')?.id).toBe('c');
    expect(pageActionButton('record-payment')).toBeNull();
  });
});
