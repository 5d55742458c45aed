import { describe, expect, it } from 'vitest';
import { checkValidity, validityDefaults } from './validity';

const problems = (v: Parameters<typeof checkValidity>[0], zone = 'Asia/Shanghai') => {
  const found: Record<string, string> = {};
  checkValidity(v, zone, (path, message) => (found[path] = message));
  return found;
};

describe('the validity of a credential sent to a lock', () => {
  it('is for the stay when there is one, else from now to the same time tomorrow on the hotel clock', () => {
    const now = new Date('2026-11-22T16:30:00Z');
    expect(validityDefaults('Asia/Shanghai', true, now)).toEqual({ mode: 'stay', validFrom: '2026-11-23T00:30', validUntil: '2026-11-24T00:30' });
    expect(validityDefaults('America/New_York', false, now).mode).toBe('period');
  });

  it('asks nothing of a stay, and a period needs two valid times, the end after the start', () => {
    expect(problems({ mode: 'stay', validFrom: '', validUntil: '' })).toEqual({});
    expect(problems({ mode: 'period', validFrom: '', validUntil: 'soon' })).toEqual({
      validFrom: 'validation.dateTimeRequired',
      validUntil: 'validation.dateTimeInvalid',
    });
    expect(problems({ mode: 'period', validFrom: '2026-11-23T10:00', validUntil: '2026-11-23T10:00' })).toEqual({ validUntil: 'validation.endAfterStart' });
    expect(problems({ mode: 'period', validFrom: '2026-11-23T10:00', validUntil: '2026-11-23T10:01' })).toEqual({});
  });
});
