import type { Runtime } from './create-runtime.js';
import type { TaskPlanner } from './prepare-task.js';

/**
 * The part of a runtime that {@link prepareTask} needs, for a package that validates and plans
 * tasks with a runtime's agents and limits but runs them elsewhere (`@troupe/postgres`'s cluster
 * client). Those members are internal to `Runtime` (stripped from its published type); this is the
 * one sanctioned way to reach them.
 */
export function taskPlannerOf(runtime: Runtime): TaskPlanner {
  return runtime;
}
