import { createInstance } from 'i18next';
import { describe, expect, it } from 'vitest';
import ar from '../../../../locales/ar.json';
import en from '../../../../locales/en.json';
import zhCN from '../../../../locales/zh-CN.json';
import { deviceLabel } from './device';

async function translator(lng: string) {
  const i18n = createInstance();
  await i18n.init({
    lng,
    resources: { en: { translation: en }, 'zh-CN': { translation: zhCN }, ar: { translation: ar } },
    interpolation: { escapeValue: false },
  });
  return i18n.t;
}

describe('deviceLabel', () => {
  it("says browser and system, in the console's language", async () => {
    const chrome = { browser: 'Chrome', browserVersion: '156', os: 'Windows' };
    expect(deviceLabel(chrome, await translator('en'))).toBe('Chrome 156 on Windows');
    expect(deviceLabel(chrome, await translator('zh-CN'))).toBe('Windows 上的 Chrome 156');
    expect(deviceLabel(chrome, await translator('ar'))).toBe('Chrome 156 على Windows');
  });

  it('says what it knows, and a translated "unknown" when it knows nothing', async () => {
    const t = await translator('en');
    expect(deviceLabel({ browser: 'OldDesk', browserVersion: '2', os: null }, t)).toBe('OldDesk 2');
    expect(deviceLabel({ browser: 'Safari', browserVersion: null, os: 'iOS' }, t)).toBe('Safari on iOS');
    expect(deviceLabel({ browser: null, browserVersion: null, os: 'Android' }, t)).toBe('Android');
    expect(deviceLabel({ browser: null, browserVersion: null, os: null }, t)).toBe('Unknown device');
    expect(deviceLabel({ browser: null, browserVersion: null, os: null }, await translator('zh-CN'))).toBe('未知设备');
    expect(deviceLabel({ browser: null, browserVersion: null, os: null }, await translator('ar'))).toBe('جهاز غير معروف');
  });
});
