import { Worker } from 'node:worker_threads';

/**
 * The module `entry` names (its `.ts` source, beside the caller) as this code runs: the compiled
 * JavaScript beside it when it runs from the build (`npm start` runs `dist/`), the TypeScript
 * source otherwise (the tests and the tools run the sources through tsx). `typescript` says
 * whether a thread or process started on it needs the TypeScript loader.
 */
export function runnableModule(entry: URL): { readonly url: URL; readonly typescript: boolean } {
  if (!entry.pathname.endsWith('.ts')) throw new Error(`a module is named by its .ts source: ${entry.href}`);
  if (import.meta.url.endsWith('.ts')) return { url: entry, typescript: true };
  return { url: new URL(entry.href.replace(/\.ts$/, '.js')), typescript: false };
}

/**
 * Starts a worker thread on a module named by its TypeScript source (`runnableModule`). The
 * compiled module starts as it is. Node 20 does not apply `--import` loader hooks to a worker's
 * entry module, so a TypeScript one is started through a one-line bootstrap that registers the
 * TypeScript loader first. `name` is added to the thread's title (`[worker 3] ijwi-encoding`), which a debugger, a
 * profile or a fault drill shows.
 */
export function startTypeScriptWorker(entry: URL, workerData: unknown, name?: string): Worker {
  const module = runnableModule(entry);
  const options = { workerData, ...(name ? { name } : {}) };
  if (!module.typescript) return new Worker(module.url, options);
  const loader = JSON.stringify(import.meta.resolve('tsx/esm/api'));
  const bootstrap = `import(${loader}).then((tsx) => { tsx.register(); return import(${JSON.stringify(entry.href)}); })`;
  return new Worker(bootstrap, { eval: true, ...options });
}
