import { Worker } from 'node:worker_threads';

/**
 * Starts a worker thread on a TypeScript module. Node 20 does not apply `--import` loader hooks
 * to a worker's entry module, so the worker is started through a one-line bootstrap that
 * registers the TypeScript loader first. `plainJavaScript` names large plain JavaScript packages
 * to load before the loader: through it they would cost each worker tens of MB more memory, for
 * nothing to transform, and once loaded they are in the module cache when the TypeScript imports them.
 */
export function startTypeScriptWorker(
  entry: URL,
  workerData: unknown,
  plainJavaScript: readonly string[] = [],
): Worker {
  const loader = JSON.stringify(import.meta.resolve('tsx/esm/api'));
  const plain = plainJavaScript.map((name) => `import(${JSON.stringify(import.meta.resolve(name))})`);
  const bootstrap = `Promise.all([${plain.join(', ')}]).then(() => import(${loader})).then((tsx) => { tsx.register(); return import(${JSON.stringify(entry.href)}); })`;
  return new Worker(bootstrap, { eval: true, workerData });
}
