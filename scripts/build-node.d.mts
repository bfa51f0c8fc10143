export const outDir: string;
export function buildNode(): Promise<string>;
