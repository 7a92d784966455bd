export declare const SERVER_VERSION: string;
export declare const GO_TOOLCHAIN: string;
export declare function haveGo(): boolean;
export declare function serverTools(root: string): { server: string; sqlTool: string };
export declare function ensureServerTools(options: { root: string; log?: (message: string) => void }): { server: string; sqlTool: string };
