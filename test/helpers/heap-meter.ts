// The heap while an export streams into a sink: a Writable that counts lines and bytes and, every so many writes,
// collects garbage (when V8 lets it expose gc()) and samples the heap, so the growth is what the export retains.
import v8 from 'node:v8';
import vm from 'node:vm';
import { Writable } from 'node:stream';

/** The V8 gc() function, so heap samples measure what is retained rather than garbage not yet collected. */
export function exposeGc(): (() => void) | undefined {
  try {
    v8.setFlagsFromString('--expose-gc');
    return vm.runInNewContext('gc') as () => void;
  } catch {
    return undefined;
  }
}

export interface HeapMeter {
  /** Where the export writes. */
  readonly sink: Writable;
  /** Newlines written. */
  readonly lines: number;
  readonly bytes: number;
  /** The highest heap sampled, less the heap when the meter was made (after a collection). */
  readonly growth: number;
}

/** A sink that samples the heap every `sampleEvery` writes, measured from the heap now. */
export function heapMeter(sampleEvery: number): HeapMeter {
  const gc = exposeGc();
  gc?.();
  const baseline = process.memoryUsage().heapUsed;
  let peak = baseline;
  let writes = 0;
  let lines = 0;
  let bytes = 0;
  const sink = new Writable({
    write(chunk: Buffer, _enc, cb) {
      bytes += chunk.length;
      for (const byte of chunk) if (byte === 0x0a) lines++;
      if (++writes % sampleEvery === 0) {
        gc?.();
        peak = Math.max(peak, process.memoryUsage().heapUsed);
      }
      cb();
    },
  });
  return {
    sink,
    get lines() {
      return lines;
    },
    get bytes() {
      return bytes;
    },
    get growth() {
      return peak - baseline;
    },
  };
}
