import { describe, expect, it } from 'vitest';
import { startBanner } from './banner';

const facts = { url: 'http://127.0.0.1:3000', hasDemo: false, lockSimUrl: null, readerSim: null };

describe('the start banner', () => {
  it('warns when PUBLIC_URL is not set: the guests’ messages cannot carry their key page link (issue 27 §10)', () => {
    const without = startBanner({ ...facts, publicUrl: undefined });
    expect(without).toContain('Key page links: OFF. PUBLIC_URL is not set');
    expect(without).toContain('http://localhost:3000');
    expect(startBanner({ ...facts, publicUrl: 'https://hotel.example.com' })).not.toContain('PUBLIC_URL');
  });
});
