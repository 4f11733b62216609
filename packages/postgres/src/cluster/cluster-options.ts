import type {
  ApprovalPolicy,
  ModelAdapter,
  ModelConfig,
  RuntimeLimits,
  RuntimeOptions,
  Tool,
} from '@troupe/core';

/** Limits of a cluster: the task defaults of one runtime, plus the cluster-wide queue limits. */
export interface ClusterLimits extends RuntimeLimits {
  /** Tasks running at once across every worker (the DBOS queue's global concurrency). Default 5. */
  maxConcurrent: number;
  /** Tasks of one session running at once across every worker (per-partition concurrency). Default 2. */
  maxPerSession: number;
}

/** What workers and clients of one cluster share: where it is, and the agents and tools it knows. */
export interface ClusterOptions {
  /** `postgres://user[:password]@host[:port]/database`: the troupe store and DBOS's system tables. */
  postgres: string;
  /** Agent definitions, or a registry holding them (as `createRuntime` takes them). */
  agents?: RuntimeOptions['agents'];
  /** The base tool set. A client needs the same tool names as the workers to validate spawns. */
  tools?: readonly Tool[];
  limits?: Partial<ClusterLimits>;
  models?: ModelConfig;
}

/** Options of {@link startWorker}. */
export interface WorkerOptions extends ClusterOptions {
  model: ModelAdapter;
  /** Unique among the cluster's live workers; the DBOS executor id. Default: host, pid and a random suffix. */
  workerId?: string;
  approval?: ApprovalPolicy;
  maxTokens?: number;
  graceMs?: number;
  /** Heartbeat period (ms); a worker silent for 3 periods with its lock free is taken over. Default 1,000. */
  heartbeatMs?: number;
  /** How often DBOS looks for startable tasks (ms). Default 50. */
  pollingIntervalMs?: number;
  /** Tasks this worker runs at once at most (DBOS worker concurrency). Default: no limit of its own. */
  workerConcurrency?: number;
}

/** The cluster's limits with defaults applied. */
export function clusterLimits(limits: Partial<ClusterLimits> = {}): Partial<RuntimeLimits> & {
  maxConcurrent: number;
  maxPerSession: number;
} {
  return { ...limits, maxConcurrent: limits.maxConcurrent ?? 5, maxPerSession: limits.maxPerSession ?? 2 };
}
