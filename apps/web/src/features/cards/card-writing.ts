import { cardNumberOfUid } from '@console/shared';
import { ReaderError, writeAndVerify, type CardReader } from '../../readers';

/**
 * The desk's part in issuing a room card (issue 8; docs/card-format.md): read the card on the
 * reader, have the server compute its data for that UID (reserve), open the card's sector with a
 * key it has now (the hotel's, for a card written before; the factory key, for a blank one), write
 * the data and the hotel's trailer, read everything back, and only then confirm: the server
 * counts the card as issued only when the read-back is exactly what it reserved. Any failure on
 * the way gives the reservation up, so no card is ever recorded as issued that was not written.
 * Screens never know which reader is attached (apps/web/src/readers).
 */

export interface CardWrite {
  issue: { id: number };
  sector: number;
  blocks: { block: number; data: string }[];
  trailer: { block: number; data: string };
  openKeys: string[];
}

export interface CardWritingApi<Issue> {
  reserve(uid: string): Promise<CardWrite>;
  confirm(input: { issueId: number; uid: string; blocks: { block: number; data: string }[] }): Promise<Issue>;
  voidReservation(input: { issueId: number }): Promise<unknown>;
}

export type CardWritingStep = 'reading' | 'preparing' | 'writing' | 'confirming';

/** The card on the reader: its UID and its number (spec: the card number is the UID's decimal value). */
export async function readCardOnReader(reader: CardReader): Promise<{ uid: string; cardNumber: string }> {
  await reader.open();
  const uid = await reader.requestCard();
  return { uid, cardNumber: cardNumberOfUid(uid) };
}

/** The first of `keys` that opens the sector of `block` on the card now, or null. */
export async function keyThatOpens(reader: CardReader, block: number, keys: readonly string[]): Promise<string | null> {
  for (const key of keys) {
    try {
      await reader.readBlock(block, key);
      return key;
    } catch (error) {
      // A wrong key is the only failure that says "try the next one".
      if (error instanceof ReaderError && (error.kind === 'authFailed' || error.kind === 'readFailed')) continue;
      throw error;
    }
  }
  return null;
}

/** Writes the card on the reader end to end; resolves with the issued card, or fails with nothing issued. */
export async function writeCardAtDesk<Issue>(
  reader: CardReader,
  api: CardWritingApi<Issue>,
  onStep: (step: CardWritingStep) => void = () => {},
): Promise<Issue> {
  onStep('reading');
  const { uid } = await readCardOnReader(reader);
  onStep('preparing');
  const write = await api.reserve(uid);
  const giveUp = () => api.voidReservation({ issueId: write.issue.id }).catch(() => undefined);
  let blocks: { block: number; data: string }[];
  try {
    onStep('writing');
    const key = await keyThatOpens(reader, write.blocks[0]!.block, write.openKeys);
    if (!key) throw new ReaderError('authFailed', { step: 'write', hint: 'checkCard', detail: 'no key the hotel knows opens this card' });
    await writeAndVerify(reader, [...write.blocks, write.trailer], key, { expectedUid: uid });
    // What the card holds now, read with the key its new trailer set: what the server compares.
    const newKey = write.trailer.data.slice(0, 12);
    blocks = [];
    for (const b of write.blocks) blocks.push({ block: b.block, data: (await reader.readBlock(b.block, newKey)).toUpperCase() });
  } catch (error) {
    await giveUp();
    throw error;
  }
  onStep('confirming');
  const issued = await api.confirm({ issueId: write.issue.id, uid, blocks });
  await reader.beep().catch(() => undefined);
  return issued;
}

/** The steps of a card taken from the card dispenser: dispensed onto the reader, then written as any other. */
export type DispensedWritingStep = 'dispensing' | CardWritingStep;

/**
 * A card taken from the dispenser failed (`error`, the reason): it was pulled into the dispenser's
 * bin (`captured`), or could not be (`captureError`) and still lies at the reader, never issued.
 */
export class DispensedCardFailure extends Error {
  constructor(
    readonly error: unknown,
    readonly captured: boolean,
    readonly captureError?: unknown,
  ) {
    super(`the dispensed card failed (${error instanceof Error ? error.message : String(error)}); ${captured ? 'captured into the bin' : 'not captured'}`, {
      cause: error,
    });
    this.name = 'DispensedCardFailure';
  }
}

/**
 * Writes a card taken from the card dispenser (issue 8 §5): a blank card is dispensed onto the
 * reader, then written as `writeCardAtDesk` writes a card placed by hand. A failure after the card
 * was dispensed (the card read, the server, the write or its read-back) gives the reservation up
 * as always and pulls the card into the dispenser's bin, so no half-written card is ever handed
 * out: it fails with a DispensedCardFailure. A failure to dispense (the dispenser empty, a card
 * still at the reader) fails with the reader's own error, nothing dispensed.
 */
export async function writeDispensedCardAtDesk<Issue>(
  reader: CardReader,
  api: CardWritingApi<Issue>,
  onStep: (step: DispensedWritingStep) => void = () => {},
): Promise<Issue> {
  onStep('dispensing');
  const dispensed = (await reader.dispenseCard()).toUpperCase();
  try {
    return await writeCardAtDesk(
      reader,
      {
        ...api,
        // The card read is the one dispensed, or another card lies in the reader's field too.
        reserve: (uid) =>
          uid.toUpperCase() === dispensed
            ? api.reserve(uid)
            : Promise.reject(new ReaderError('cardChanged', { step: 'request', hint: 'checkCard', detail: `dispensed ${dispensed}, read ${uid}` })),
      },
      onStep,
    );
  } catch (error) {
    try {
      await reader.captureCard();
    } catch (captureError) {
      throw new DispensedCardFailure(error, false, captureError);
    }
    throw new DispensedCardFailure(error, true);
  }
}

/** Clears a returned card's data blocks (withdrawal): the card stays the hotel's, blank for the next guest. */
export async function clearCardAtDesk(reader: CardReader, clear: readonly { block: number; data: string }[], keys: readonly string[]): Promise<void> {
  if (clear.length === 0) return;
  const key = await keyThatOpens(reader, clear[0]!.block, keys);
  if (!key) throw new ReaderError('authFailed', { step: 'write', hint: 'checkCard', detail: 'no key the hotel knows opens this card' });
  await writeAndVerify(reader, clear, key);
}
