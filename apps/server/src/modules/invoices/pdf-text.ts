import { createRequire } from 'node:module';
import bidiFactory from 'bidi-js';

/**
 * Text on a PDF page in any of the console's languages (docs/invoices.md, "The PDF"): the Noto fonts
 * shipped as npm packages (Latin, Cyrillic and Greek; Arabic; Chinese simplified and traditional,
 * Japanese, Korean), chosen character by character; a line laid out by the Unicode bidirectional
 * algorithm (bidi-js) so that Arabic reads right to left with its numbers and Latin names left to
 * right inside it; fontkit (pdfkit's) shapes each run (Arabic joining). Text wraps at the word
 * breaks of `Intl.Segmenter` (a Chinese or Japanese line at any character).
 */

const require = createRequire(import.meta.url);
type Face = 'latin' | 'arabic' | 'sc' | 'tc' | 'jp' | 'kr';
export type Weight = 'regular' | 'bold';
/** Each face's font files, regular and bold (named in full: the image keeps only these two weights). */
const FONT_FILES: Record<Face, Record<Weight, () => string>> = {
  latin: {
    regular: () => require.resolve('@expo-google-fonts/noto-sans/400Regular/NotoSans_400Regular.ttf'),
    bold: () => require.resolve('@expo-google-fonts/noto-sans/700Bold/NotoSans_700Bold.ttf'),
  },
  arabic: {
    regular: () => require.resolve('@expo-google-fonts/noto-sans-arabic/400Regular/NotoSansArabic_400Regular.ttf'),
    bold: () => require.resolve('@expo-google-fonts/noto-sans-arabic/700Bold/NotoSansArabic_700Bold.ttf'),
  },
  sc: {
    regular: () => require.resolve('@expo-google-fonts/noto-sans-sc/400Regular/NotoSansSC_400Regular.ttf'),
    bold: () => require.resolve('@expo-google-fonts/noto-sans-sc/700Bold/NotoSansSC_700Bold.ttf'),
  },
  tc: {
    regular: () => require.resolve('@expo-google-fonts/noto-sans-tc/400Regular/NotoSansTC_400Regular.ttf'),
    bold: () => require.resolve('@expo-google-fonts/noto-sans-tc/700Bold/NotoSansTC_700Bold.ttf'),
  },
  jp: {
    regular: () => require.resolve('@expo-google-fonts/noto-sans-jp/400Regular/NotoSansJP_400Regular.ttf'),
    bold: () => require.resolve('@expo-google-fonts/noto-sans-jp/700Bold/NotoSansJP_700Bold.ttf'),
  },
  kr: {
    regular: () => require.resolve('@expo-google-fonts/noto-sans-kr/400Regular/NotoSansKR_400Regular.ttf'),
    bold: () => require.resolve('@expo-google-fonts/noto-sans-kr/700Bold/NotoSansKR_700Bold.ttf'),
  },
};

const bidi = bidiFactory();
const ARABIC = /[\p{Script=Arabic}\p{Script=Hebrew}\p{Script=Syriac}\p{Script=Thaana}]/u;
const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Bopomofo}\u3000-\u303f\uff00-\uffef]/u;
const HANGUL = /\p{Script=Hangul}/u;
/** Characters that take the font of their neighbours (spaces, digits, punctuation, marks). */
const NEUTRAL = /[\p{Script=Common}\p{Script=Inherited}]/u;
/** Invisible controls (bidi marks and isolates that `Intl` puts around numbers): laid out, never drawn. */
const INVISIBLE = /\p{Cf}/gu;

/** The CJK font a language reads its Han characters in. */
function hanFace(language: string): Face {
  if (language === 'zh-TW') return 'tc';
  if (language === 'ja') return 'jp';
  if (language === 'ko') return 'kr';
  return 'sc';
}

export type Segment = { face: Face; text: string };
/**
 * Where a line goes: a box `x` to `x + width` in page coordinates, its text at the box's start or
 * end side for the page's direction (`start` is the right side in Arabic); `dir` overrides the
 * line's own direction (an amount reads left to right in Arabic too, as on the screen).
 */
export type TextBox = {
  x: number;
  top: number;
  width: number;
  align?: 'start' | 'end';
  size: number;
  weight?: Weight;
  color?: string;
  dir?: 'ltr' | 'rtl';
};

export class PageText {
  private readonly han: Face;
  private readonly registered = new Set<string>();
  /** Whether a face has a glyph for a code point (asked of the font once per character). */
  private readonly glyphs = new Map<string, boolean>();

  constructor(
    private readonly doc: PDFKit.PDFDocument,
    readonly language: string,
    readonly dir: 'ltr' | 'rtl',
  ) {
    this.han = hanFace(language);
  }

  private use(face: Face, weight: Weight, size: number) {
    const name = `${face}-${weight}`;
    if (!this.registered.has(name)) {
      this.doc.registerFont(name, FONT_FILES[face][weight]());
      this.registered.add(name);
    }
    this.doc.font(name).fontSize(size);
  }

  private has(face: Face, char: string): boolean {
    const key = `${face}:${char}`;
    let known = this.glyphs.get(key);
    if (known === undefined) {
      this.use(face, 'regular', 10);
      const font = (this.doc as unknown as { _font: { font: { hasGlyphForCodePoint(c: number): boolean } } })._font.font;
      known = font.hasGlyphForCodePoint(char.codePointAt(0)!);
      this.glyphs.set(key, known);
    }
    return known;
  }

  /** The face a character is drawn in: its script's, else the first that has it. */
  private faceOf(char: string, previous: Face | null): Face {
    if (NEUTRAL.test(char) && previous && this.has(previous, char)) return previous;
    const first: Face = ARABIC.test(char) ? 'arabic' : HANGUL.test(char) ? 'kr' : CJK.test(char) ? this.han : 'latin';
    if (this.has(first, char)) return first;
    return (['latin', 'arabic', this.han, 'sc', 'tc', 'jp', 'kr'] as Face[]).find((f) => this.has(f, char)) ?? 'latin';
  }

  /** A logical run of text cut where its font changes. */
  private segments(text: string): Segment[] {
    const out: Segment[] = [];
    let previous: Face | null = null;
    for (const char of text) {
      const face = this.faceOf(char, previous);
      const last = out.at(-1);
      if (last && last.face === face) last.text += char;
      else out.push({ face, text: char });
      previous = face;
    }
    return out;
  }

  /**
   * A line in visual order, left to right: runs of one direction and one font. A right-to-left run
   * holding Arabic is given in logical order (fontkit shapes it, reverses its glyphs and mirrors its
   * brackets); one of neutrals alone is reversed and mirrored here.
   */
  visual(line: string, dir: 'ltr' | 'rtl' = this.dir): Segment[] {
    const levels = bidi.getEmbeddingLevels(line, dir);
    const indices = [...Array(line.length).keys()];
    for (const segment of bidi.getReorderSegments(line, levels)) {
      const [start, end] = segment as [number, number];
      indices.splice(start, end - start + 1, ...indices.slice(start, end + 1).reverse());
    }
    // Group the visual order into runs of one level (a run's characters are contiguous in logical order).
    const runs: { rtl: boolean; from: number; to: number }[] = [];
    for (const i of indices) {
      const rtl = (levels.levels[i]! & 1) === 1;
      const last = runs.at(-1);
      if (last && last.rtl === rtl && (rtl ? i === last.from - 1 : i === last.to + 1)) {
        if (rtl) last.from = i;
        else last.to = i;
      } else runs.push({ rtl, from: i, to: i });
    }
    const out: Segment[] = [];
    for (const run of runs) {
      let logical = '';
      for (let i = run.from; i <= run.to; i++) logical += line[i]!;
      logical = logical.replace(INVISIBLE, '');
      if (!logical) continue;
      const segments = this.segments(logical);
      if (!run.rtl) {
        out.push(...segments);
        continue;
      }
      for (const segment of segments.reverse()) {
        const mirrored = () => [...segment.text].reverse().map((c) => bidi.getMirroredCharacter(c) ?? c);
        out.push(ARABIC.test(segment.text) ? segment : { face: segment.face, text: mirrored().join('') });
      }
    }
    return out;
  }

  /** The width of a line of text. */
  width(text: string, size: number, weight: Weight = 'regular'): number {
    let width = 0;
    for (const segment of this.visual(text)) {
      this.use(segment.face, weight, size);
      width += this.doc.widthOfString(segment.text);
    }
    return width;
  }

  /**
   * One line at `top`, in a box `x` to `x + width` (page coordinates), its start or end at the
   * box's start or end side for the page's direction (`start` is the right side in Arabic).
   */
  line(text: string, box: TextBox) {
    const weight = box.weight ?? 'regular';
    const segments = this.visual(text, box.dir);
    const widths = segments.map((s) => {
      this.use(s.face, weight, box.size);
      return this.doc.widthOfString(s.text);
    });
    const total = widths.reduce((a, b) => a + b, 0);
    const align = box.align ?? 'start';
    const right = (align === 'start') === (this.dir === 'rtl');
    let x = right ? box.x + box.width - total : box.x;
    this.doc.fillColor(box.color ?? '#171717');
    for (const s of segments) {
      this.use(s.face, weight, box.size);
      x = this.draw(s, x, box.top);
    }
  }

  /**
   * A segment drawn word by word from `x` (pdfkit's own line layout would trim its spaces and put
   * the words of a right-to-left run back in logical order): the x after it.
   */
  private draw(segment: Segment, x: number, top: number): number {
    const tokens = segment.text.split(/( +)/).filter(Boolean);
    // A right-to-left run of Arabic is shaped and reversed by fontkit word by word: its words go right to left.
    if (ARABIC.test(segment.text)) tokens.reverse();
    for (const token of tokens) {
      if (token.trim()) this.doc.text(token, x, top, { lineBreak: false });
      x += this.doc.widthOfString(token);
    }
    return x;
  }

  /** A text wrapped to a width: its lines, in logical order. */
  wrap(text: string, width: number, size: number, weight: Weight = 'regular'): string[] {
    const lines: string[] = [];
    const fits = (t: string) => this.width(t, size, weight) <= width;
    for (const paragraph of text.split(/\r\n|[\n\r\u2028\u2029]/)) {
      let current = '';
      for (const { segment: word } of new Intl.Segmenter(this.language, { granularity: 'word' }).segment(paragraph)) {
        if (fits((current + word).trimEnd())) {
          current += word;
          continue;
        }
        if (current.trim()) lines.push(current.trimEnd());
        current = word.trimStart();
        // A word longer than the line: cut between characters.
        while (!fits(current)) {
          const graphemes = [...new Intl.Segmenter(this.language, { granularity: 'grapheme' }).segment(current)].map((s) => s.segment);
          if (graphemes.length < 2) break;
          let cut = graphemes.length - 1;
          while (cut > 1 && !fits(graphemes.slice(0, cut).join(''))) cut -= 1;
          lines.push(graphemes.slice(0, cut).join(''));
          current = graphemes.slice(cut).join('');
        }
      }
      lines.push(current.trimEnd());
    }
    return lines;
  }

  /** A wrapped text drawn from `top`: the height it took. */
  paragraph(text: string, box: TextBox & { leading?: number }): number {
    const step = box.size * (box.leading ?? 1.45);
    const lines = this.wrap(text, box.width, box.size, box.weight);
    lines.forEach((line, i) => this.line(line, { ...box, top: box.top + i * step }));
    return lines.length * step;
  }
}
