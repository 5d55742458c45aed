// @vitest-environment jsdom
import { act } from 'react';
import { createRoot } from 'react-dom/client';
import i18next from 'i18next';
import { I18nextProvider, initReactI18next } from 'react-i18next';
import { beforeAll, describe, expect, it } from 'vitest';
import en from '../../../../locales/en.json';
import { randomCustomCode } from '@/lib/credentials';
import { CustomCodeField, PasswordKindField, firstKindTaken } from './password-kind-fields';
import type { LockTakes } from './lock-cannot-take';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const i18n = i18next.createInstance();
beforeAll(async () => {
  await i18n.use(initReactI18next).init({ lng: 'en', resources: { en: { translation: en } }, interpolation: { escapeValue: false } });
});

const registration = { name: 'kind', onChange: async () => true, onBlur: async () => true, ref: () => {} };

/** Each kind's radio: whether it can be chosen, and what its card says. */
async function kinds(takes: LockTakes | null) {
  const container = document.createElement('div');
  const root = createRoot(container);
  await act(async () =>
    root.render(
      <I18nextProvider i18n={i18n}>
        <PasswordKindField idPrefix="issue" registration={registration} value={firstKindTaken(takes)} takes={takes} roomName="S72" />
      </I18nextProvider>,
    ),
  );
  const result = Object.fromEntries(
    ['custom', 'air', 'one_time'].map((kind) => {
      const input = container.querySelector<HTMLInputElement>(`[data-testid="issue-kind-${kind}"]`)!;
      const why = input.getAttribute('aria-describedby');
      return [kind, { enabled: !input.disabled, why: why ? container.querySelector(`#${why}`)?.textContent : null }];
    }),
  );
  await act(async () => root.unmount());
  return result;
}

describe('the kinds of password a room’s lock takes (issue 38)', () => {
  it('greys out a chosen code on a lock that takes generated codes only, says why, and starts on a generated one', async () => {
    const takes = { onlineCodes: false, offlineCodes: true, faces: false, cards: false };
    expect(firstKindTaken(takes)).toBe('air');
    expect(await kinds(takes)).toEqual({
      custom: { enabled: false, why: 'The lock of room S72 cannot take a chosen code: give it a generated one' },
      air: { enabled: true, why: null },
      one_time: { enabled: true, why: null },
    });
  });

  it('greys out the generated kinds on a lock that takes chosen codes only (a Seam keypad without offline codes)', async () => {
    const takes = { onlineCodes: true, offlineCodes: false, faces: false, cards: false };
    expect(firstKindTaken(takes)).toBe('custom');
    const shown = await kinds(takes);
    expect(shown.custom).toEqual({ enabled: true, why: null });
    expect(shown.air).toEqual({ enabled: false, why: 'The lock of room S72 cannot take a generated code: choose a code for it' });
    expect(shown.one_time!.enabled).toBe(false);
  });

  it('offers every kind for a room without a lock (its codes wait for one)', async () => {
    expect(Object.values(await kinds(null)).every((k) => k.enabled)).toBe(true);
  });
});

describe('a keypad without a 0 key (a Nuki Keypad, issue 38)', () => {
  /** The code field's hint, as the clerk reads it. */
  async function hintOf(noZero: boolean) {
    const container = document.createElement('div');
    const root = createRoot(container);
    await act(async () =>
      root.render(
        <I18nextProvider i18n={i18n}>
          <CustomCodeField id="code" registration={{ ...registration, name: 'code' }} onRandom={() => {}} noZero={noZero} />
        </I18nextProvider>,
      ),
    );
    const text = container.textContent ?? '';
    await act(async () => root.unmount());
    return text;
  }

  it('says so under the code field, and its random codes have no 0', async () => {
    expect(await hintOf(true)).toContain("This lock's keypad has no 0 key: use the digits 1 to 9.");
    expect(await hintOf(false)).not.toContain('no 0 key');
    const codes = Array.from({ length: 300 }, () => randomCustomCode(true));
    expect(codes.filter((c) => !/^[1-9]{6}$/.test(c))).toEqual([]);
    expect(Array.from({ length: 300 }, () => randomCustomCode()).some((c) => c.includes('0'))).toBe(true);
  });
});
