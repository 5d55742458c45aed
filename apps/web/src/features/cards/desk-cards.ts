/**
 * The cards feature's part of the signed-in layout, one chunk loaded after the first paint (the
 * route `_auth` mounts both lazily): "Read card" in the navbar, and the host of the card-writing
 * dialog. Neither is part of the room board's first download (bench/bundle-size.ts).
 */
export { ReadCardButton } from './read-card-button';
export { RoomCardsHost } from './room-cards-host';
