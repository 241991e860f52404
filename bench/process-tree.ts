import { readdirSync, readFileSync } from 'node:fs';

// A process and its descendants (the service, and the neural runtime processes its workers
// start), read from /proc (Linux; other systems get no figures).

function read(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}

/** The fields of /proc/<pid>/stat after the command name, which may hold spaces: state is [0], ppid [1]. */
function statFields(path: string): string[] | undefined {
  const stat = read(path);
  return stat === undefined ? undefined : stat.slice(stat.lastIndexOf(')') + 2).split(' ');
}

/** `pid` and every process descended from it that is alive now. */
export function processTree(pid: number): number[] {
  const children = new Map<number, number[]>();
  for (const entry of readdirSync('/proc')) {
    const child = Number(entry);
    if (!Number.isInteger(child)) continue;
    const parent = Number(statFields(`/proc/${child}/stat`)?.[1]);
    if (!Number.isInteger(parent)) continue;
    children.set(parent, [...(children.get(parent) ?? []), child]);
  }
  const tree: number[] = [];
  const pending = [pid];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    tree.push(next);
    pending.push(...(children.get(next) ?? []));
  }
  return tree;
}

/** A field of /proc/<pid>/status in MB (`VmRSS`, `VmHWM`), or undefined when the process is gone. */
export function statusMb(pid: number, field: 'VmRSS' | 'VmHWM'): number | undefined {
  const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(read(`/proc/${pid}/status`) ?? '');
  return match?.[1] ? Number(match[1]) / 1024 : undefined;
}

/** Clock ticks per second of /proc's CPU times (USER_HZ, 100 on Linux). */
const TICKS_PER_SECOND = 100;

/** User + system CPU time in ms of a process (all its threads), or of one thread with `tid`. */
export function cpuMs(pid: number, tid?: number): number | undefined {
  const fields = statFields(tid === undefined ? `/proc/${pid}/stat` : `/proc/${pid}/task/${tid}/stat`);
  if (fields === undefined) return undefined;
  // utime is field 14 of the whole line, stime 15.
  return ((Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND) * 1000;
}

/** Resident memory of `pid` and its descendants together, in MB; undefined when `pid` is gone. */
export function treeRssMb(pid: number): number | undefined {
  if (statusMb(pid, 'VmRSS') === undefined) return undefined;
  return processTree(pid).reduce((sum, member) => sum + (statusMb(member, 'VmRSS') ?? 0), 0);
}

/** CPU time of `pid` and its living descendants together, in ms. */
export function treeCpuMs(pid: number): number | undefined {
  if (cpuMs(pid) === undefined) return undefined;
  return processTree(pid).reduce((sum, member) => sum + (cpuMs(member) ?? 0), 0);
}
