/**
 * The lock simulator as a program of the server's build (`node apps/server/dist/lock-sim.js`, the
 * compose file's optional `lock-sim` service): apps/lock-sim's command line, LOCK_SIM_* settings
 * (docs/lock-sim.md). Nothing behind it is a real lock.
 */
import '@console/lock-sim/main';
