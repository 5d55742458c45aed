import { Direction as DirectionPrimitive } from 'radix-ui';

type Dir = 'ltr' | 'rtl';

/**
 * Reading direction for radix primitives that lay themselves out (Select, DropdownMenu):
 * the explicit prop, else RTL when either a `DirectionProvider` or `<html dir="rtl">` says so.
 * Without this, radix falls back to "ltr" and stamps `dir="ltr"` on its trigger and content.
 * The document is read at render time, which is enough because a language change reloads the app.
 */
function useDirection(dir?: Dir): Dir {
  const contextDir = DirectionPrimitive.useDirection(undefined);
  if (dir) return dir;
  if (contextDir === 'rtl') return 'rtl';
  if (typeof document !== 'undefined' && document.documentElement.dir === 'rtl') return 'rtl';
  return 'ltr';
}

export { useDirection };
