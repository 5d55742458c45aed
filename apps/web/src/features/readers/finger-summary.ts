/** A capture whose quality is at least this is good enough to enrol (a common threshold of sensors' SDKs). */
export const GOOD_QUALITY = 60;

export interface CaptureSummary {
  quality: number;
  /** Bytes of the template. */
  size: number;
  /** The first bytes of the template in hex: two captures of the same finger start alike. */
  head: string;
  at: Date;
}

/** What the page shows of a capture: its quality, the template's size and first bytes (never the template itself). */
export function summarizeCapture(capture: { template: string; quality: number }, at = new Date()): CaptureSummary {
  let bytes: Uint8Array;
  try {
    bytes = Uint8Array.from(atob(capture.template), (c) => c.charCodeAt(0));
  } catch {
    bytes = new Uint8Array();
  }
  const head = Array.from(bytes.slice(0, 8), (b) => b.toString(16).padStart(2, '0'))
    .join(' ')
    .toUpperCase();
  return { quality: Math.max(0, Math.min(100, Math.round(capture.quality))), size: bytes.length, head, at };
}
