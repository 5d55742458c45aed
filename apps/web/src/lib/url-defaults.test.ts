import { describe, expect, it } from 'vitest';
import { withoutDefaults } from './url-defaults';

describe('withoutDefaults', () => {
  it('leaves out what is unset or equal to its default, keeps the rest', () => {
    expect(withoutDefaults({ tab: 'orders', page: 1, kind: undefined, from: '2026-11-01' }, { tab: 'orders', page: 1 })).toEqual({ from: '2026-11-01' });
    expect(withoutDefaults({ tab: 'cash', page: 2 }, { tab: 'orders', page: 1 })).toEqual({ tab: 'cash', page: 2 });
  });
});
