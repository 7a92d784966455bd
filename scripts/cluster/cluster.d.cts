export interface ClusterOptions {
  /** The cluster's folder (default .temporal-cluster). */
  dir?: string;
  /** Added to Temporal's usual ports (default 10000). */
  offset?: number;
  shards?: number;
  logLevel?: string;
  log?: (message: string) => void;
}

export interface ProcessSpec {
  command: string;
  args: string[];
  env: Record<string, string>;
  cwd: string;
  log: string;
  /** The executable whose PID this is (checked before a signal is sent). */
  match: string;
  port: number;
}

export interface ClusterState {
  serverVersion: string;
  /** host:port of the frontend. */
  address: string;
  namespace: string;
  dir: string;
  offset: number;
  shards: number;
  /** postgres, history-1, history-2, matching-1, matching-2, frontend, worker. */
  processes: Record<string, { pid: number; spec: ProcessSpec }>;
}

export interface ClusterStatus {
  address: string;
  namespace: string;
  serverVersion: string;
  processes: Record<string, { pid: number; running: boolean }>;
}

export declare function startCluster(options?: ClusterOptions): Promise<ClusterState>;
export declare function stopCluster(options?: ClusterOptions): Promise<boolean>;
export declare function clusterStatus(options?: ClusterOptions): ClusterStatus | null;
/** SIGKILLs one process; resolves with its PID once it is gone. */
export declare function killProcess(options: ClusterOptions, name: string): Promise<number>;
/** Starts a stopped process again as it was started; resolves with its new PID once it listens. */
export declare function restartProcess(options: ClusterOptions, name: string): Promise<number>;
