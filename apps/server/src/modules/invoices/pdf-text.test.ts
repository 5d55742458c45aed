import PDFDocument from 'pdfkit';
import { describe, expect, it } from 'vitest';
import { PageText } from './pdf-text';

/** The text engine of the invoice PDF (pdf-text.ts): fonts by character, the bidi order of a line, wrapping. */
const engine = (language: string, dir: 'ltr' | 'rtl' = 'ltr') => new PageText(new PDFDocument({ autoFirstPage: true }), language, dir);

describe('a line in visual order', () => {
  it('puts an Arabic line right to left: its date at the left, the words of its label given whole to the shaper', () => {
    expect(engine('ar', 'rtl').visual('تاريخ الإصدار: \u200f28\u200f/11\u200f/2026')).toEqual([
      { face: 'latin', text: '2026' },
      { face: 'latin', text: '/' },
      { face: 'latin', text: '11' },
      { face: 'latin', text: '/' },
      { face: 'latin', text: '28' },
      { face: 'arabic', text: 'تاريخ الإصدار: ' },
    ]);
  });

  it('keeps a Latin name and its number left to right inside an Arabic line', () => {
    expect(engine('ar', 'rtl').visual('الغرفة Suite 12 (VIP)')).toEqual([
      { face: 'latin', text: 'Suite 12 (VIP)' },
      { face: 'arabic', text: 'الغرفة ' },
    ]);
  });

  it('puts an Arabic name inside a left-to-right line in its place', () => {
    expect(engine('en').visual('Guest: محمد علي · Room 102')).toEqual([
      { face: 'latin', text: 'Guest: ' },
      { face: 'arabic', text: 'محمد علي' },
      { face: 'latin', text: ' · Room 102' },
    ]);
  });

  it('reverses and mirrors a run of neutrals the shaper would leave as it is', () => {
    // Neutrals alone on a right-to-left line, in the Latin font: reversed, the bracket mirrored.
    expect(engine('ar', 'rtl').visual('!(?')).toEqual([{ face: 'latin', text: '?)!' }]);
  });

  it('chooses the font of each script, and the CJK font of the language', () => {
    expect(
      engine('zh-TW')
        .visual('張偉')
        .map((r) => r.face),
    ).toEqual(['tc']);
    expect(
      engine('ja')
        .visual('山田 太郎')
        .map((r) => r.face),
    ).toEqual(['jp']);
    expect(
      engine('en')
        .visual('김민준')
        .map((r) => r.face),
    ).toEqual(['kr']);
    expect(
      engine('ru-RU')
        .visual('Иванов')
        .map((r) => r.face),
    ).toEqual(['latin']);
    expect(
      engine('en')
        .visual('张伟')
        .map((r) => r.face),
    ).toEqual(['sc']);
  });

  it('draws no invisible control', () => {
    const text = engine('ar', 'rtl')
      .visual('\u200e\u2067CN¥ 12.00\u2069\u061c')
      .map((r) => r.text)
      .join('');
    expect(text).not.toMatch(/\p{Cf}/u);
    expect(text).toContain('12.00');
  });
});

describe('wrapping', () => {
  it('wraps Chinese between characters and loses none', () => {
    const text = '上海市浦东新区世纪大道一百号日出大厦二十三楼国际会议中心东侧入口';
    const t = engine('zh-CN');
    const lines = t.wrap(text, 80, 9.5);
    expect(lines.length).toBeGreaterThan(2);
    for (const line of lines) expect(t.width(line, 9.5)).toBeLessThanOrEqual(80);
    expect(lines.join('')).toBe(text);
  });

  it('wraps at spaces, keeps line breaks, and cuts a word longer than the line', () => {
    const t = engine('en');
    const long = 'X'.repeat(120);
    const lines = t.wrap(`12 Ocean Road\nShanghai ${long}`, 100, 9.5);
    expect(lines[0]).toBe('12 Ocean Road');
    expect(lines[1]).toBe('Shanghai');
    for (const line of lines) expect(t.width(line, 9.5)).toBeLessThanOrEqual(100);
    expect(lines.slice(2).join('')).toBe(long);
  });
});
