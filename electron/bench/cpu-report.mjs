// Preloaded (`node --import`) into the crawl's main process by the benchmark: as the process exits it writes, to the
// file named by TRAWL_BENCH_CPU_REPORT, its own CPU time and that of the child processes it has reaped (the crawl's
// workers, from /proc/self/stat's cutime and cstime, in clock ticks). Plain JavaScript: it must cost the crawl nothing.
import fs from 'node:fs';

const file = process.env.TRAWL_BENCH_CPU_REPORT;
if (file) {
  process.on('exit', () => {
    const self = process.cpuUsage();
    let children = null;
    try {
      const stat = fs.readFileSync('/proc/self/stat', 'utf8');
      // Fields after the command name: state is field 3, so field N is at N - 3 (cutime 16, cstime 17).
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      children = { userTicks: Number(fields[13]), systemTicks: Number(fields[14]) };
    } catch {
      // not Linux
    }
    fs.writeFileSync(file, JSON.stringify({ selfMicros: { user: self.user, system: self.system }, children }));
  });
}
