export interface LocalModelSpec {
  name: string;
  parts: number;
  version: string;
  bytes: number;
  sha256: string;
  /** A template built into llama.cpp, for a model file that carries none. */
  chatTemplate?: string;
}
export declare const MODELS: Record<'0.5b' | '1.5b' | 'gemma-270m', LocalModelSpec>;
export declare function ensureLlamaServer(root?: string): Promise<string>;
export declare function ensureModel(root?: string, model?: string): Promise<string>;
export interface LocalModel {
  baseURL: string;
  /** The name llama-server answers with (`--alias`). */
  model: string;
  pid: number;
  stop(): Promise<void>;
}
export declare function startLocalModel(options?: { root?: string; model?: string; port?: number; contextSize?: number; maxTokens?: number; timeoutMs?: number }): Promise<LocalModel>;
export declare function serverPath(root: string): string;
export declare function modelPath(root: string, model: string): string;
