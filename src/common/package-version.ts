/** This package's version, from its package.json (beside src in the repository, beside dist when installed). */
export const PACKAGE_VERSION: string = (require('../../package.json') as { version: string }).version;
