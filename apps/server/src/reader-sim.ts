/**
 * The desk card-reader simulator as a program of the server's build (`node apps/server/dist/reader-sim.js`,
 * `pnpm reader-sim`, the compose file's optional `reader-sim` service): apps/reader-sim's command
 * line, READER_SIM_* settings (docs/readers.md). Nothing behind it is a real reader.
 */
import '@console/reader-sim/main';
