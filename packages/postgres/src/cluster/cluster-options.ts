import type {
  ApprovalPolicy,
  ModelAdapter,
  ModelConfig,
  PriceTable,
  RuntimeLimits,
  RuntimeOptions,
  Tool,
  ToolSource,
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
  /**
   * Tools asked for when a task starts on this worker (e.g. an MCP hub's `toolSource()`), as
   * `createRuntime({ toolSources })` takes them. None by default.
   */
  toolSources?: readonly ToolSource[];
  /** Unique among the cluster's live workers; the DBOS executor id. Default: host, pid and a random suffix. */
  workerId?: string;
  approval?: ApprovalPolicy;
  /** The prices of the worker runtime's cost estimates (`runtime.usage()`); list prices by default. */
  prices?: PriceTable;
  maxTokens?: number;
  graceMs?: number;
  /** Heartbeat period (ms). Default 1,000. */
  heartbeatMs?: number;
  /**
   * A worker whose last heartbeat is older than this (ms, by the database's clock) is taken for
   * dead and its tasks are resumed by the others; should it be alive after all (a long pause, a
   * network partition), its writes for those tasks are refused and it gives them up. Longer means
   * slower takeovers; shorter, more needless ones under load. At least 2 × `heartbeatMs`.
   * Default 10 × `heartbeatMs` (10 s).
   */
  deadAfterMs?: number;
  /** Called with the tasks this worker gave up because another worker took them over (for logs). */
  onTasksLost?: (taskIds: string[]) => void;
  /** How often DBOS looks for startable tasks (ms). Default 50. */
  pollingIntervalMs?: number;
  /** Tasks this worker runs at once at most (DBOS worker concurrency). Default: no limit of its own. */
  workerConcurrency?: number;
  /** How often a worker hosting a team asks the store which of its members' spells ended (ms). Default 250. */
  teamPollMs?: number;
}

/** The cluster's limits with defaults applied. */
export function clusterLimits(limits: Partial<ClusterLimits> = {}): Partial<RuntimeLimits> & {
  maxConcurrent: number;
  maxPerSession: number;
} {
  return { ...limits, maxConcurrent: limits.maxConcurrent ?? 5, maxPerSession: limits.maxPerSession ?? 2 };
}
