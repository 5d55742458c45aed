/** The hotel switch is a chunk of its own: only accounts of several hotels load it, when the page is idle (user-menu.tsx) and in the open menu. */
export const loadHotelSwitch = () => import('./hotel-switch');
