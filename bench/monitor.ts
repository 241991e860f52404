import { readFileSync } from 'node:fs';

// What the service and the load generator use while each phase runs, from /proc (Linux; other
// systems get no figures): resident memory sampled often, CPU time read at phase boundaries.
// The CPU figures say what bounds a result: a service short of CPU, or a load generator that
// could not keep up, on a machine whose cores they share.

/** Clock ticks per second of /proc's CPU times (USER_HZ, 100 on Linux). */
const TICKS_PER_SECOND = 100;

function read(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}

/** A field of /proc/<pid>/status in MB (`VmRSS`, `VmHWM`). */
function statusMb(pid: number, field: 'VmRSS' | 'VmHWM'): number | undefined {
  const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(read(`/proc/${pid}/status`) ?? '');
  return match?.[1] ? Number(match[1]) / 1024 : undefined;
}

/** User + system CPU time in ms of a process (all its threads), or of one thread with `tid`. */
function cpuMs(pid: number, tid?: number): number | undefined {
  const stat = read(tid === undefined ? `/proc/${pid}/stat` : `/proc/${pid}/task/${tid}/stat`);
  if (stat === undefined) return undefined;
  // Fields after the command name, which may hold spaces: state is field 3, utime 14, stime 15.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND) * 1000;
}

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

  /** The kernel's own high-water mark of the service's resident memory. */
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
    this.#peak = Math.max(this.#peak, statusMb(this.#service, 'VmRSS') ?? 0);
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
