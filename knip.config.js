// Dead code and unused dependencies, checked in `npm run lint` (knip reads the imports, the
// package.json scripts and the tools' configs).
/** @type {import('knip').KnipConfig} */
export default {
  entry: [
    // The package's entry points (package.json exports and bin) and the image's health probe.
    'src/{cli,index,workers,playwright,healthcheck}.ts',
    // The QA console, bundled by scripts/build-console.js.
    'console/src/main.ts',
    'bench/*.js',
    // Started as processes by bench/lib/systems.js, by path.
    'bench/servers/*.js',
    'scripts/*.js',
    'test/**/*.test.ts',
    // The attacks that assert, run by npm run crash and npm run stress.
    'test/attacks/*.js',
  ],
  project: [
    'src/**/*.ts',
    'console/src/**/*.ts',
    'bench/**/*.js',
    'scripts/**/*.js',
    'test/**/*.{ts,js}',
  ],
  // Other projects' files (vitest, Playwright, CommonJS): test:consumers runs them in projects
  // that install what they import.
  ignore: ['examples/**'],
  // An export its own module uses is no dead code: a constant or a type shown beside its function.
  ignoreExportsUsedInFile: true,
  // pino loads it by name in a worker (src/util/logger.ts), which no import shows.
  ignoreDependencies: ['pino-pretty'],
  ignoreBinaries: [
    // Debian's: util-linux (the crash attacks, the benches' CPU pinning) and redis-server (apt).
    'mount',
    'umount',
    'unshare',
    'taskset',
    'redis-server',
    // This package's own bin, run from the packed tarball.
    'petstore-mock',
  ],
};
