import { createHash } from 'node:crypto';
import { BLOCK_BYTES, CardError, isTrailer, keyMatches, readBlock, sectorOf, writeBlock, type KeyType } from './mifare';
import { DeviceError, type FailureOp, type InjectedFailure } from './device-status';
import { DeviceWorld, toHex, type LiveCard } from './device-world';

/**
 * The simulated desk device behind all three services: one MIFARE encoder (vendor 1047, product
 * 32800) with a card field, a fingerprint module and a card dispenser. Each service (type1.ts,
 * type2.ts, type3.ts) translates its own protocol into these operations and the statuses of
 * device-status.ts into its own codes; the world around the device (its state, the control API's
 * acts) is device-world.ts. Nothing here is real hardware.
 */
export class ReaderDevice extends DeviceWorld {
  private requireConnected(): void {
    if (!this.connected) throw new DeviceError('device_not_connected');
  }

  private takeFailure(op: FailureOp): InjectedFailure | null {
    const index = this.failures.findIndex((f) => f.op === op);
    if (index < 0) return null;
    const failure = this.failures[index]!;
    failure.times -= 1;
    if (failure.times <= 0) this.failures.splice(index, 1);
    return { ...failure };
  }

  private cardInField(): LiveCard {
    this.requireConnected();
    const card = this.onReader ? this.cards.get(this.onReader) : undefined;
    if (!card) throw new DeviceError('no_card');
    return card;
  }

  private cardError(error: unknown): never {
    if (error instanceof CardError) throw new DeviceError(error.refusal === 'auth_failed' ? 'auth_failed' : error.refusal, error.message);
    throw error;
  }

  /** Request, anticollision and select: the UID of the card in the field. */
  request(): { uid: string; atqa: string; sak: string } {
    const card = this.cardInField();
    if (this.takeFailure('request')) throw new DeviceError('no_card', 'no answer from the card (injected failure)');
    this.auth = null;
    const block0 = card.memory[0]!;
    const uidLength = card.meta.uid.length / 2;
    const sak = uidLength === 4 ? block0[5]! : block0[7]!;
    const atqa = uidLength === 4 ? block0.subarray(6, 8) : block0.subarray(8, 10);
    return { uid: card.meta.uid, atqa: toHex(atqa), sak: sak.toString(16).padStart(2, '0').toUpperCase() };
  }

  halt(): void {
    this.requireConnected();
    this.auth = null;
  }

  /**
   * Authenticates the sector of `block` with key A or B. The simulated reader selects the card in
   * the field itself first. A wrong key fails, and the card forgets any earlier authentication.
   */
  authenticate(block: number, keyType: KeyType, key: Buffer): void {
    const card = this.cardInField();
    const sector = sectorOf(block);
    this.auth = null;
    if (this.takeFailure('auth')) throw new DeviceError('auth_failed', 'authentication failed (injected failure)');
    if (!keyMatches(card.memory, sector, keyType, key))
      throw new DeviceError('auth_failed', `authentication of sector ${sector} with key ${keyType} failed: wrong key`);
    this.auth = { uid: card.meta.uid, sector, keyType };
  }

  private authenticatedFor(card: LiveCard, block: number): KeyType {
    const auth = this.auth;
    if (!auth || auth.uid !== card.meta.uid || auth.sector !== sectorOf(block)) {
      throw new DeviceError('not_authenticated', `sector ${sectorOf(block)} is not authenticated: authenticate it before reading or writing block ${block}`);
    }
    return auth.keyType;
  }

  read(block: number): Buffer {
    const card = this.cardInField();
    const keyType = this.authenticatedFor(card, block);
    if (this.takeFailure('read')) throw new DeviceError('read_failed', 'read failed (injected failure)');
    try {
      return readBlock(card.memory, block, keyType);
    } catch (error) {
      return this.cardError(error);
    }
  }

  write(block: number, data: Buffer): void {
    const card = this.cardInField();
    const keyType = this.authenticatedFor(card, block);
    const failure = this.takeFailure('write');
    if (failure?.effect === 'fail') throw new DeviceError('write_failed', 'write failed (injected failure)');
    let stored = data;
    if (failure?.effect === 'corrupt') {
      // Reported as written, but one byte differs when read back: the general purpose byte of a
      // trailer (readable, so the read-back shows it), the last byte of a data block.
      stored = Buffer.from(data);
      const at = isTrailer(block) ? 9 : BLOCK_BYTES - 1;
      stored[at] = stored[at]! ^ 0x5a;
    }
    try {
      writeBlock(card.memory, block, keyType, stored);
    } catch (error) {
      return this.cardError(error);
    }
    this.changed();
  }

  readWithKey(block: number, keyType: KeyType, key: Buffer): Buffer {
    this.authenticate(block, keyType, key);
    return this.read(block);
  }

  writeWithKey(block: number, keyType: KeyType, key: Buffer, data: Buffer): void {
    this.authenticate(block, keyType, key);
    this.write(block, data);
  }

  beep(ms: number): void {
    this.requireConnected();
    this.beeps = { count: this.beeps.count + 1, lastMs: ms };
  }

  /** A fingerprint from the module: a template made from the placed finger's id, and its quality. */
  captureFinger(): { template: Buffer; quality: number } {
    this.requireConnected();
    if (!this.finger.present) throw new DeviceError('no_finger_module');
    const placed = this.finger.placed;
    if (!placed) throw new DeviceError('no_finger');
    return { template: createHash('sha256').update(`reader-sim finger:${placed.id}`).digest(), quality: placed.quality };
  }

  dispenserStatus() {
    this.requireConnected();
    if (!this.dispenser.present) throw new DeviceError('no_dispenser');
    return { ...this.dispenser, cardAtReader: this.onReader !== null };
  }

  /** Moves a blank card from the stacker onto the reader: a new blank card appears in the field. */
  dispense(): { uid: string; stock: number } {
    this.dispenserStatus();
    if (this.onReader) throw new DeviceError('card_at_reader');
    if (this.dispenser.stock <= 0) throw new DeviceError('dispenser_empty');
    this.dispenser.stock -= 1;
    const card = this.placeCard(undefined, 'dispenser');
    return { uid: card.uid, stock: this.dispenser.stock };
  }

  /** Pulls the card on the reader into the dispenser's bin. */
  capture(): { uid: string; bin: number } {
    this.dispenserStatus();
    if (!this.onReader) throw new DeviceError('no_card_at_reader');
    if (this.dispenser.bin >= this.dispenser.binCapacity) throw new DeviceError('bin_full');
    const uid = this.takeCardAway('bin')!;
    this.dispenser.bin += 1;
    this.changed();
    return { uid, bin: this.dispenser.bin };
  }
}
