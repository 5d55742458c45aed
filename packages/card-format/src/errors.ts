/**
 * A call the card format cannot serve: arguments out of range (`invalid_input`), a key set that is
 * not one (`invalid_keys`), a card dump that is not one (`invalid_dump`), or master-card rooms that
 * do not fit on a card (`too_many_rooms`), or more shared doors than a guest card names (`too_many_doors`). A card that is refused is never an error: decoding and
 * checking answer with a reason.
 */
export type CardFormatErrorCode = 'invalid_input' | 'invalid_keys' | 'invalid_dump' | 'too_many_rooms' | 'too_many_doors';

export class CardFormatError extends Error {
  readonly code: CardFormatErrorCode;

  constructor(code: CardFormatErrorCode, message: string) {
    super(message);
    this.name = 'CardFormatError';
    this.code = code;
  }
}
