// @vitest-environment jsdom
import { act } from 'react';
import { createRoot } from 'react-dom/client';
import i18next from 'i18next';
import { I18nextProvider, initReactI18next } from 'react-i18next';
import { beforeAll, describe, expect, it } from 'vitest';
import en from '../../../../../locales/en.json';
import type { HotelLock } from './lock-accounts';
import { Features } from './lock-state';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const i18n = i18next.createInstance();
beforeAll(async () => {
  await i18n.use(initReactI18next).init({ lng: 'en', resources: { en: { translation: en } }, interpolation: { escapeValue: false } });
});

const NOTHING: HotelLock['capabilities'] = {
  keypad: false,
  onlinePasscodes: false,
  offlinePasscodes: false,
  cardReader: false,
  faceModule: false,
  remoteUnlock: false,
  encodedCards: false,
};

/** Each feature the lock row shows, by its name for screen readers (and on hover). */
async function features(capabilities: Partial<HotelLock['capabilities']>): Promise<string[]> {
  const container = document.createElement('div');
  const root = createRoot(container);
  const lock = { capabilities: { ...NOTHING, ...capabilities } } as HotelLock;
  await act(async () =>
    root.render(
      <I18nextProvider i18n={i18n}>
        <Features lock={lock} />
      </I18nextProvider>,
    ),
  );
  const items = [...container.querySelectorAll('[data-feature]')].map((li) => `${li.getAttribute('data-feature')}: ${li.getAttribute('title')}`);
  const text = items.length ? items : [container.textContent ?? ''];
  await act(async () => root.unmount());
  return text;
}

describe("a lock's features on the lock accounts page (issue 38: capabilities drive the screens)", () => {
  it('names which passwords its keypad takes, and whether it opens from the console', async () => {
    // A TTLock keypad lock behind a gateway: both kinds, and the unlock.
    expect(await features({ keypad: true, onlinePasscodes: true, offlinePasscodes: true, remoteUnlock: true, cardReader: true })).toEqual([
      'keypad: Keypad (passcodes)',
      'cardReader: Card reader',
      'remoteUnlock: Remote unlock',
    ]);
    // A Seam keypad that takes only codes set online (most of them), without a bridge.
    expect(await features({ keypad: true, onlinePasscodes: true })).toEqual(['keypad: Keypad (custom passwords only)']);
    // A keypad that only works codes out itself (igloohome's algoPIN).
    expect(await features({ keypad: true, offlinePasscodes: true, remoteUnlock: true })).toEqual([
      'keypad: Keypad (over-the-air passwords only)',
      'remoteUnlock: Remote unlock',
    ]);
    // A hotel card system's door (Seam acs): its cards are encoded at the desk, nothing else.
    expect(await features({ encodedCards: true })).toEqual(['encodedCards: Card system door (cards encoded at the desk)']);
    expect(await features({})).toEqual(['Bluetooth only']);
  });
});
