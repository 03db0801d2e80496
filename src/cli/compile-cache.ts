import * as nodeModule from 'node:module';

function isCallable(value: unknown): value is () => unknown {
  return typeof value === 'function';
}

/**
 * Keeps the code Node compiles for the modules loaded after this (the CLI, Express, the
 * validator...) in a cache on disk, so that later starts skip most of that work. Node 22.1+; a
 * no-op on Node 20.
 */
export function enableCompileCache(): void {
  const enable: unknown = Reflect.get(nodeModule, 'enableCompileCache');
  if (isCallable(enable)) enable();
}
