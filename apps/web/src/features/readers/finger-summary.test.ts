import { describe, expect, it } from 'vitest';
import { GOOD_QUALITY, summarizeCapture } from './finger-summary';

describe('summarizeCapture (the fingerprint test shows a summary, never the template)', () => {
  it('gives the quality, the size in bytes and the first 8 bytes in hex', () => {
    const template = btoa(String.fromCharCode(...Array.from({ length: 32 }, (_, i) => i * 7)));
    const at = new Date('2026-11-22T10:00:00Z');
    expect(summarizeCapture({ template, quality: 82.4 }, at)).toEqual({ quality: 82, size: 32, head: '00 07 0E 15 1C 23 2A 31', at });
  });

  it('keeps the quality within 0 to 100 and survives a template that is not base64', () => {
    expect(summarizeCapture({ template: '%%%', quality: 140 })).toMatchObject({ quality: 100, size: 0, head: '' });
    expect(summarizeCapture({ template: '', quality: -3 }).quality).toBe(0);
    expect(GOOD_QUALITY).toBe(60);
  });
});
