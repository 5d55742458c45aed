import { useCallback, useEffect, useState } from 'react';
import { LIMITS } from '@console/shared';
import { readSidebarOpen, writeSidebarOpen } from '@/lib/sidebar-state';

const mobileQuery = `(max-width: ${LIMITS.mobileBreakpointPx - 1}px)`;

/**
 * Spec §2 layout: the sidebar (210px) opens and closes with the toggle, remembers its state in
 * the cookie `sidebarStatus`, and closes itself when the viewport is narrower than 992px.
 */
export function useSidebar() {
  const [isMobile, setIsMobile] = useState(() => window.matchMedia(mobileQuery).matches);
  const [isOpen, setIsOpen] = useState(() => readSidebarOpen() && !window.matchMedia(mobileQuery).matches);

  useEffect(() => {
    const media = window.matchMedia(mobileQuery);
    const onChange = () => {
      setIsMobile(media.matches);
      if (media.matches) {
        setIsOpen(false);
        // Kept closed: written once, not on every page of a phone's visit.
        if (readSidebarOpen()) writeSidebarOpen(false);
      }
    };
    onChange();
    media.addEventListener('change', onChange);
    return () => media.removeEventListener('change', onChange);
  }, []);

  const setOpen = useCallback((open: boolean) => {
    setIsOpen(open);
    writeSidebarOpen(open);
  }, []);
  const toggle = useCallback(() => setOpen(!isOpen), [isOpen, setOpen]);
  return { isOpen, isMobile, setOpen, toggle };
}
