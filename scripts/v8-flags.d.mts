export const HEAP_FLAGS: readonly string[];
export const WORKER_FLAGS: readonly string[];
