import { statfs } from 'node:fs/promises';
import { cpus, freemem, totalmem } from 'node:os';

interface CpuSample {
  at: number;
  idle: number;
  total: number;
}

function sampleCpu(): CpuSample {
  let idle = 0;
  let total = 0;
  for (const cpu of cpus()) {
    idle += cpu.times.idle;
    total += cpu.times.user + cpu.times.nice + cpu.times.sys + cpu.times.irq + cpu.times.idle;
  }
  return { at: Date.now(), idle, total };
}

const percent = (part: number, whole: number) => (whole > 0 ? Math.min(100, Math.max(0, Math.round((part / whole) * 1000) / 10)) : 0);

/**
 * The host the gateway runs on: CPU busy time between two readings (a 200 ms sample when the last one
 * is older than a minute), memory in use and the root file system's use.
 */
export class HostReader {
  private last: CpuSample | null = null;

  async read(): Promise<{ cpuUsage: number; memoryUsage: number; diskUsage: number }> {
    if (!this.last || Date.now() - this.last.at > 60_000) {
      this.last = sampleCpu();
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    const now = sampleCpu();
    const busy = now.total - this.last.total - (now.idle - this.last.idle);
    const cpuUsage = percent(busy, now.total - this.last.total);
    this.last = now;
    const disk = await statfs('/').then(
      (s) => percent(s.blocks - s.bfree, s.blocks),
      () => 0,
    );
    return { cpuUsage, memoryUsage: percent(totalmem() - freemem(), totalmem()), diskUsage: disk };
  }
}
