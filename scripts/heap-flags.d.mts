export const HEAP_FLAGS: readonly string[];
