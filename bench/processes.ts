import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import http from "node:http";
import { send } from "./load";

// Starting servers for the bench and watching their memory.

/**
 * Starts `command` with its open-file limit raised to the hard limit (a server holding tens of
 * thousands of widgets needs a socket each; the soft limit is often lower).
 */
export function startProcess(command: string, args: string[], env: Record<string, string>, logTo?: (line: string) => void): ChildProcess {
  const child = spawn("bash", ["-c", 'ulimit -n "$(ulimit -Hn)"; exec "$0" "$@"', command, ...args], {
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const forward = (data: Buffer) => logTo?.(data.toString());
  child.stdout?.on("data", forward);
  child.stderr?.on("data", forward);
  return child;
}

export async function waitForHttp(port: number, timeoutMs = 60_000): Promise<void> {
  const agent = new http.Agent();
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      await send(port, { method: "GET", path: "/api/v1/ready-check" }, agent);
      return;
    } catch {
      if (Date.now() > deadline) throw new Error(`nothing answered on port ${port}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
}

/** Resident set size of a process, in MiB (Linux). */
export function rssMiB(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kib = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  return Math.round(kib / 1024);
}

/** CPU time (user + system) a process has used so far, in ms (Linux; clock ticks of 10 ms). */
export function cpuMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  const [utime, stime] = stat.slice(stat.lastIndexOf(")") + 2).split(" ").slice(11, 13).map(Number);
  return ((utime ?? 0) + (stime ?? 0)) * 10;
}

/** The open-file limit a process may raise itself to (`ulimit -Hn`). */
export function hardOpenFileLimit(): number {
  const limit = execFileSync("bash", ["-c", "ulimit -Hn"], { encoding: "utf8" }).trim();
  return limit === "unlimited" ? 1_048_576 : Number(limit);
}

/**
 * Samples the RSS of the processes (summed: several server instances count as one service)
 * every 250 ms; `stop()` returns the peak and the samples with their times.
 */
export function watchMemory(...pids: number[]) {
  const samples: { at: number; mib: number }[] = [];
  const startedAt = Date.now();
  const timer = setInterval(() => samples.push({ at: Date.now() - startedAt, mib: pids.reduce((sum, pid) => sum + rssMiB(pid), 0) }), 250);
  return {
    stop() {
      clearInterval(timer);
      const peak = samples.reduce((max, sample) => Math.max(max, sample.mib), 0);
      return { peak, samples };
    },
  };
}

export async function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.kill("SIGTERM");
  const timer = setTimeout(() => child.kill("SIGKILL"), 5_000);
  await exited;
  clearTimeout(timer);
}
