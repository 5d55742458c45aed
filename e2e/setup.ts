import { afterAll, afterEach, beforeAll } from 'vitest';
import { closeRedis, failurePictures, useServer } from './support';
import { forgetA11y, reportA11y } from './support-a11y';
import { closeSql } from './support-stays';

/**
 * Run before every browser test file (vitest.config.ts `setupFiles`). The files of a worker share
 * its modules (`isolate: false`: playwright, the support files and axe are imported once a worker,
 * not once a file, which was 5 to 16 s between two files on a loaded machine), so what a file must
 * start afresh is reset here, and the hooks every test needs are registered here, for each file.
 */
beforeAll(() => {
  // Each file checks its own screens with axe, as when each had its modules of its own.
  forgetA11y();
  useServer(null);
});

// A test that failed with pages still open (a file's own page, kept from test to test) leaves their pictures.
afterEach(async ({ task }) => {
  if (task.result?.state === 'fail') await failurePictures();
});

// Whatever the automatic accessibility checks found during a test fails that test.
afterEach(() => {
  reportA11y();
});

// What a file left open talks to the worker's console, not to the next file.
afterAll(async () => {
  useServer(null);
  await closeSql();
  await closeRedis();
});
