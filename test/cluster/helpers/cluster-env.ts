import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { clusterStatus, killProcess, restartProcess, type ClusterState } from '../../../scripts/cluster/cluster.cjs';
import { findPostgresBin, PG_USER } from '../../../scripts/cluster/postgres.cjs';

const run = promisify(execFile);

/** Set by the cluster tier's global setup: the folder of the cluster the tests may kill processes of. */
export const CLUSTER_DIR_ENV = 'TEMPORAL_CLUSTER_TEST_DIR';

export function clusterDir(): string | undefined {
  const dir = process.env[CLUSTER_DIR_ENV];
  return dir && existsSync(join(dir, 'state.json')) ? dir : undefined;
}

function requireDir(): string {
  const dir = clusterDir();
  if (!dir) throw new Error(`${CLUSTER_DIR_ENV} names no running cluster: run the tier with npm run test:cluster`);
  return dir;
}

function state(): ClusterState {
  return JSON.parse(readFileSync(join(requireDir(), 'state.json'), 'utf8')) as ClusterState;
}

/** SIGKILLs one process of the cluster ('history-1', 'frontend', …); resolves with its PID once it is gone. */
export function killClusterProcess(name: string): Promise<number> {
  return killProcess({ dir: requireDir() }, name);
}

export function restartClusterProcess(name: string): Promise<number> {
  return restartProcess({ dir: requireDir() }, name);
}

/** Starts again whatever process of the cluster is down, so one test's failure leaves the next a whole cluster. */
export async function restoreCluster(): Promise<void> {
  const dir = clusterDir();
  const status = dir ? clusterStatus({ dir }) : null;
  for (const [name, process] of Object.entries(status?.processes ?? {})) if (!process.running) await restartClusterProcess(name);
}

/** The gRPC port of each history process: what the owner of a shard is named by. */
export function historyPorts(): Record<string, number> {
  const processes = state().processes;
  return Object.fromEntries(Object.keys(processes).filter((name) => name.startsWith('history-')).map((name) => [name, processes[name]!.spec.port]));
}

export interface ShardRecord {
  shard: number;
  /** Raised by one each time a process acquires the shard. */
  rangeId: number;
  /** The history process that owns it (by its port), as the shard's row in PostgreSQL says. */
  ownerPort: number;
}

async function query(sql: string): Promise<string[]> {
  const dir = requireDir();
  const bin = findPostgresBin();
  const psql = bin && existsSync(join(bin, 'psql')) ? join(bin, 'psql') : 'psql';
  const port = state().processes.postgres!.spec.port;
  const { stdout } = await run(psql, ['-h', '127.0.0.1', '-p', String(port), '-U', PG_USER, '-d', 'temporal', '-At', '-c', sql], {
    env: { ...process.env, PGPASSWORD: readFileSync(join(dir, 'db-password'), 'utf8').trim() },
  });
  return stdout.trim().split('\n').filter(Boolean);
}

/** Each history shard's row of the persistence database: which process owns it since when. */
export async function shardRecords(): Promise<ShardRecord[]> {
  // The owner is the host identity ("127.0.0.1:<port>-…") inside the shard's protobuf blob.
  const rows = await query(`SELECT shard_id || ' ' || range_id || ' ' || substring(encode(data, 'escape') from '127\\.0\\.0\\.1:(\\d+)-') FROM shards ORDER BY shard_id`);
  return rows.map((line) => line.split(' ').map(Number)).map(([shard, rangeId, ownerPort]) => ({ shard: shard!, rangeId: rangeId!, ownerPort: ownerPort! }));
}

/**
 * The lease generation of every loaded task-queue partition of the cluster (workflow and activity,
 * the worker service's own queues too), by partition: a matching process that takes a partition
 * over raises it by one.
 */
export async function partitionRanges(): Promise<Map<string, number>> {
  const rows = await query(`SELECT encode(task_queue_id, 'hex') || ' ' || range_id FROM task_queues`);
  return new Map(rows.map((line) => line.split(' ')).map(([id, range]) => [id!, Number(range)]));
}

/** The partitions of `before` whose lease generation rose since: those that changed hands. */
export function movedPartitions(before: Map<string, number>, after: Map<string, number>): string[] {
  return [...before].filter(([id, range]) => (after.get(id) ?? range) > range).map(([id]) => id);
}

/** Whether a partition id (hex, as partitionRanges has it) belongs to `taskQueue`. */
export function ofTaskQueue(id: string, taskQueue: string): boolean {
  return Buffer.from(id, 'hex').includes(taskQueue);
}
