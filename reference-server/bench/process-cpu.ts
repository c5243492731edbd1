/**
 * CPU time of processes, from Linux's /proc: what a benchmark's call costs each process
 * (client, server, database) whatever else the machine is doing. Elsewhere the readers
 * answer undefined, and the figures are left out.
 */
import { readdirSync, readFileSync } from 'node:fs';

/** The fields of `/proc/<pid>/stat` after the command's closing parenthesis. */
function statFields(pid: number): string[] {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
}

/**
 * CPU milliseconds (user and system) the processes have used so far; undefined where
 * one cannot be read (not Linux, or it has exited).
 *
 * @example
 * ```ts
 * const before = cpuMsOf([child.pid]);
 * ```
 */
export function cpuMsOf(pids: readonly (number | undefined)[]): number | undefined {
  let total = 0;
  for (const pid of pids) {
    if (pid === undefined) return undefined;
    try {
      const fields = statFields(pid);
      // utime and stime: fields 14 and 15 of the whole line.
      total += Number(fields[11]) + Number(fields[12]);
    } catch {
      return undefined;
    }
  }
  // Clock ticks: 100 a second on Linux.
  return total * 10;
}

/** The parent of a process; undefined where it cannot be read. */
export function parentOf(pid: number): number | undefined {
  try {
    return Number(statFields(pid)[1]);
  } catch {
    return undefined;
  }
}

/**
 * The process and its children now (a PostgreSQL postmaster and its backends and
 * workers); empty where /proc cannot be read.
 *
 * @example
 * ```ts
 * const pids = familyOf(postmasterPid);
 * ```
 */
export function familyOf(pid: number): number[] {
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return [];
  }
  const family = [pid];
  for (const entry of entries) {
    const child = Number(entry);
    if (Number.isInteger(child) && child !== pid && parentOf(child) === pid) family.push(child);
  }
  return family;
}
