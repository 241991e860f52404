import { parentPort } from 'node:worker_threads';
import { compileFlite } from './wasi-runner.ts';

// The thread of `compileFliteInThread`: compiles Flite, sends the module and ends.
parentPort?.postMessage(await compileFlite());
