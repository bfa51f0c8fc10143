export const NODE_ENTRIES: Record<string, string>;
export const NODE_BUILD_INPUTS: string[];
export function nodeBuildInputsFile(root: string): string;
export function rendererStampFile(root: string): string;
export function nodeBundlesStale(root: string): string | null;
export function rendererStale(root: string): string | null;
export function buildApp(root: string, stdio?: import('node:child_process').StdioOptions): void;
export function ensureNodeBundles(root: string): Promise<boolean>;
