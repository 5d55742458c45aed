// @vitest-environment jsdom
import { act } from 'react';
import { createRoot } from 'react-dom/client';
import i18next from 'i18next';
import { I18nextProvider, initReactI18next } from 'react-i18next';
import { beforeAll, describe, expect, it } from 'vitest';
import en from '../../../../locales/en.json';
import { DeliveryStatus } from './delivery-state-badge';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const i18n = i18next.createInstance();
beforeAll(async () => {
  await i18n.use(initReactI18next).init({ lng: 'en', resources: { en: { translation: en } }, interpolation: { escapeValue: false } });
});

async function shown(props: Parameters<typeof DeliveryStatus>[0]): Promise<{ text: string; setting: string | null }> {
  const container = document.createElement('div');
  const root = createRoot(container);
  await act(async () => root.render(<I18nextProvider i18n={i18n}>{<DeliveryStatus {...props} />}</I18nextProvider>));
  const badge = container.querySelector('[data-testid="delivery-state"]')!;
  const result = { text: container.textContent ?? '', setting: badge.getAttribute('data-setting') };
  await act(async () => root.unmount());
  return result;
}

describe('a credential’s state with its lock', () => {
  it('says a code a lock platform accepted and sets later (Seam) is being set on the lock, not on its way to it', async () => {
    expect(await shown({ state: 'pending', setting: true, lastError: null })).toEqual({ text: 'Accepted, being set on the lock', setting: 'true' });
    expect(await shown({ state: 'pending', setting: false, lastError: null })).toEqual({ text: 'Sending to the lock', setting: null });
    // The platform's trouble while it keeps trying is said beside it.
    expect((await shown({ state: 'pending', setting: true, lastError: 'lock_offline' })).text).toMatch(/^Accepted, being set on the lock.+/);
    // Only a pending code is "being set": once on the lock it says so.
    expect((await shown({ state: 'on_lock', setting: true, lastError: null })).text).toBe('On the lock');
  });
});
