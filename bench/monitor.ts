import { cpuMs, statusMb, treeRssMb } from './process-tree.ts';

// What the service and the load generator use while each phase runs, from /proc (Linux; other
// systems get no figures): resident memory of the service's process tree (its neural runtime
// processes included) sampled often, CPU time read at phase boundaries.
// The CPU figures say what bounds a result: a service short of CPU, or a load generator that
// could not keep up, on a machine whose cores they share.

/** One phase: its length, peak memory and the CPU each side used, in cores (1 = one core busy). */
export interface PhaseUsage {
  readonly seconds: number;
  readonly peakMb: number | null;
  readonly serviceCores: number | null;
  /** The service's main thread alone: HTTP, accounts, database, framing, sockets. */
  readonly mainThreadCores: number | null;
  readonly loadGeneratorCores: number | null;
}

interface Mark {
  readonly at: number;
  readonly service: number | undefined;
  readonly main: number | undefined;
  readonly client: number | undefined;
}

const cores = (from: number | undefined, to: number | undefined, ms: number) =>
  from === undefined || to === undefined || ms <= 0 ? null : (to - from) / ms;

export class ProcessMonitor {
  readonly #service: number;
  #client: number | undefined;
  readonly #timer: NodeJS.Timeout;
  readonly #usage = new Map<string, PhaseUsage>();
  #phase = 'start';
  #peak = 0;
  #mark: Mark;

  constructor(servicePid: number, everyMs = 50) {
    this.#service = servicePid;
    this.#mark = this.#now();
    this.#timer = setInterval(() => this.#sample(), everyMs);
    this.#sample();
  }

  /** The load generator, once it runs. */
  set client(pid: number) {
    this.#client = pid;
    this.#mark = { ...this.#mark, client: cpuMs(pid) };
  }

  /** Ends the current phase and starts the next. */
  set phase(name: string) {
    this.#close();
    this.#phase = name;
  }

  /** Every phase so far, the current one included, in order. */
  usage(): ReadonlyMap<string, PhaseUsage> {
    this.#close();
    return this.#usage;
  }

  /** The kernel's own high-water mark of the service's resident memory (its main process alone). */
  highWaterMb(): number | null {
    return statusMb(this.#service, 'VmHWM') ?? null;
  }

  stop(): void {
    clearInterval(this.#timer);
  }

  #now(): Mark {
    return {
      at: performance.now(),
      service: cpuMs(this.#service),
      main: cpuMs(this.#service, this.#service),
      client: this.#client === undefined ? undefined : cpuMs(this.#client),
    };
  }

  #sample(): void {
    this.#peak = Math.max(this.#peak, treeRssMb(this.#service) ?? 0);
  }

  #close(): void {
    this.#sample();
    const end = this.#now();
    const ms = end.at - this.#mark.at;
    this.#usage.set(this.#phase, {
      seconds: ms / 1000,
      peakMb: this.#peak > 0 ? this.#peak : null,
      serviceCores: cores(this.#mark.service, end.service, ms),
      mainThreadCores: cores(this.#mark.main, end.main, ms),
      loadGeneratorCores: cores(this.#mark.client, end.client, ms),
    });
    this.#mark = end;
    this.#peak = 0;
    this.#sample();
  }
}
