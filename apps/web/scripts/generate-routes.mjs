// Regenerates src/routeTree.gen.ts from src/routes (the Vite plugin does it on build and dev;
// this lets the type check run right after a route file is added).
import { Generator, getConfig } from '@tanstack/router-generator';

const config = getConfig({ target: 'react', autoCodeSplitting: true }, process.cwd());
await new Generator({ config, root: process.cwd() }).run();
