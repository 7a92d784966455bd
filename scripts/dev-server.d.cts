export interface StartDevServerOptions {
  cliPath: string;
  port?: number;
  uiPort?: number;
  dbFile?: string;
  headless?: boolean;
  namespace?: string;
  /** More namespaces created at launch. */
  namespaces?: readonly string[];
  /** `key=value` settings instead of DEV_SERVER_DYNAMIC_CONFIG. */
  dynamicConfig?: readonly string[];
  log?: (message: string) => void;
  startTimeoutMs?: number;
  /** Starts again when the server exits before it is ready (default 3 attempts in all). */
  attempts?: number;
}

export interface DevServer {
  /** host:port of the frontend, e.g. 127.0.0.1:7233 */
  address: string;
  /** null when started headless */
  uiUrl: string | null;
  pid: number;
  port: number;
  uiPort: number;
  dbFile: string;
  logFile: string;
  namespace: string;
  stop(options?: { timeoutMs?: number }): Promise<void>;
}

export declare const SEARCH_ATTRIBUTE_FLAGS: readonly string[];
/** `key=value` dynamic configuration the dev server starts with (eager dispatch, the update size limit). */
export declare const DEV_SERVER_DYNAMIC_CONFIG: readonly string[];
export declare const DEFAULT_DB_FILE: string;
export declare function startDevServer(options: StartDevServerOptions): Promise<DevServer>;
export declare function stopDevServerByPid(pid: number, options?: { timeoutMs?: number }): Promise<boolean>;
export declare function isTemporalReachable(address: string, timeoutMs?: number): Promise<boolean>;
export declare function findFreePort(): Promise<number>;
export declare function findFreePorts(count: number): Promise<number[]>;
