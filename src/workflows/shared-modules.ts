// Workflow code, loaded once per worker before any run (Temporal's preloadModules; see
// src/worker/agent-bundle-options.ts). Naming a library here makes every run use this one copy.
// The library itself cannot be named to the preload: its package declares no side effects, so the
// bundler drops a bare require of it; a re-export keeps it.
export * as zod from 'zod';
