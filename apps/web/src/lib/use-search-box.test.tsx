// @vitest-environment jsdom
import { act } from 'react';
import { createRoot } from 'react-dom/client';
import { Outlet, RouterProvider, createMemoryHistory, createRootRoute, createRoute, createRouter } from '@tanstack/react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { useSearchBox } from './use-search-box';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

afterEach(() => vi.useRealTimers());

describe('a list’s search box', () => {
  it('applies what was typed after a pause, and not once the clerk has left the page that is still drawn', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const applied: string[] = [];
    let setText: (text: string) => void = () => {};
    // The box stays drawn across a navigation, as a page does while the next one loads (a flake
    // under load met it: the room board's pause ended after `g t` and brought the clerk back).
    function Box() {
      const box = useSearchBox('', (text) => applied.push(text));
      setText = box.setText;
      return null;
    }
    const root = createRootRoute({
      component: () => (
        <>
          <Box />
          <Outlet />
        </>
      ),
    });
    const room = createRoute({ getParentRoute: () => root, path: '/room', component: () => null });
    const today = createRoute({ getParentRoute: () => root, path: '/today', component: () => null });
    const router = createRouter({ routeTree: root.addChildren([room, today]), history: createMemoryHistory({ initialEntries: ['/room'] }) });
    const container = document.createElement('div');
    const view = createRoot(container);
    await act(async () => {
      view.render(<RouterProvider router={router} />);
      await router.load();
    });

    act(() => setText(' 101 '));
    act(() => vi.advanceTimersByTime(299));
    expect(applied).toEqual([]);
    act(() => vi.advanceTimersByTime(1));
    expect(applied).toEqual(['101']);

    act(() => setText('102'));
    await act(() => router.navigate({ to: '/today' }));
    act(() => vi.advanceTimersByTime(1_000));
    expect(applied).toEqual(['101']);
    expect(router.state.location.pathname).toBe('/today');
    act(() => view.unmount());
  });
});
