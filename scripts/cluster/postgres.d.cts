export declare const PG_USER: string;
/** The folder with postgres, initdb (and psql, pg_isready where installed), or null. */
export declare function findPostgresBin(): string | null;
export declare function postgresMajor(bin: string): number;
