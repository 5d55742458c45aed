// Moved to modules/base/room-access.ts (issue 27: the folder knot). Kept only for modules/feeds,
// which another branch is changing: its imports move to base/ once that branch is merged.
export { findRoom, roomScope } from '../base/room-access';
