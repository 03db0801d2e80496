import * as nodeModule from 'node:module';

function isCallable(value: unknown): value is () => unknown {
  return typeof value === 'function';
}

/** Caches on disk the code Node compiles for the modules loaded after this: later starts skip it. */
export function enableCompileCache(): void {
  const enable: unknown = Reflect.get(nodeModule, 'enableCompileCache');
  if (isCallable(enable)) enable();
}
