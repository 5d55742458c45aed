import { badInputTests } from './bad-input';

// Part 5 of 6 of the bad-input tests (bad-input.ts): the parts run side by side.
badInputTests(5, 6);
