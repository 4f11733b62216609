import * as v from 'valibot';
import { ValidationError } from '../errors.js';
import type { TeamConfig } from './team-types.js';

/** A teammate of {@link CreateTeamOptions}. */
export interface TeammateOptions {
  /** The name the others address it by: lowercase letters, digits and hyphens. */
  name: string;
  /** The agent definition its spells run. */
  agent: string;
  /** Its spawn prompt. Without one it waits for a message before it first works. */
  prompt?: string;
  /** Its write and execute tools are refused until the lead approves its plan (`ExitPlanMode`). */
  planModeRequired?: boolean;
  /** Input + output tokens over all its spells. */
  tokenBudget?: number;
}

/** Options of `runtime.createTeam`. */
export interface CreateTeamOptions {
  /** A label for progress lines. Default `team`. */
  name?: string;
  /** The lead: an agent name, or `{ agent, name?, tokenBudget? }` (its name defaults to `team-lead`). */
  lead: string | { agent: string; name?: string; tokenBudget?: number };
  /** The job: the lead's first prompt. */
  prompt: string;
  teammates: TeammateOptions[];
  /** Groups the team's spells for `cancelSession`. Default `default`. */
  sessionKey?: string;
  /** Messages the team may send in all (a broadcast counts once per recipient). Default 200. */
  maxMessages?: number;
  /** Input + output tokens of all members' spells. Default 1,000,000. */
  tokenBudget?: number;
}

/** Default message limit of a team. */
export const DEFAULT_TEAM_MESSAGES = 200;
/** Default token budget of a team. */
export const DEFAULT_TEAM_TOKENS = 1_000_000;

const positive = v.pipe(v.number(), v.integer(), v.minValue(1));
const memberName = v.pipe(
  v.string(),
  v.regex(/^[a-z0-9][a-z0-9-]{0,39}$/, 'a member name is 1-40 lowercase letters, digits and hyphens'),
);
const text = (what: string) =>
  v.pipe(
    v.string(),
    v.check((value) => value.trim().length > 0, `${what} must not be empty`),
  );

const OptionsSchema = v.strictObject({
  name: v.optional(text('name')),
  lead: v.union([
    text('lead'),
    v.strictObject({
      agent: text('lead.agent'),
      name: v.optional(memberName),
      tokenBudget: v.optional(positive),
    }),
  ]),
  prompt: text('prompt'),
  teammates: v.pipe(
    v.array(
      v.strictObject({
        name: memberName,
        agent: text('agent'),
        prompt: v.optional(v.string()),
        planModeRequired: v.optional(v.boolean()),
        tokenBudget: v.optional(positive),
      }),
    ),
    v.minLength(1, 'a team needs at least one teammate'),
  ),
  sessionKey: v.optional(text('sessionKey')),
  maxMessages: v.optional(positive),
  tokenBudget: v.optional(positive),
});

/**
 * Checks `createTeam` options and turns them into the team's stored config; throws a
 * `ValidationError` naming every bad field, or a duplicate member name. `agentName` resolves an
 * agent (throwing for an unknown one).
 */
export function teamConfigFrom(options: unknown, agentName: (agent: string) => string): TeamConfig {
  const parsed = v.safeParse(OptionsSchema, options);
  if (!parsed.success) {
    const issues = parsed.issues.map((issue) => {
      const path = v.getDotPath(issue);
      return path ? `${path}: ${issue.message}` : issue.message;
    });
    throw new ValidationError(`Invalid team options: ${issues.join('; ')}.`, issues);
  }
  const input = parsed.output;
  const lead = typeof input.lead === 'string' ? { agent: input.lead } : input.lead;
  const leadName = lead.name ?? 'team-lead';
  const members: TeamConfig['members'] = [
    {
      name: leadName,
      agent: agentName(lead.agent),
      prompt: input.prompt,
      ...(lead.tokenBudget !== undefined ? { tokenBudget: lead.tokenBudget } : {}),
    },
  ];
  for (const teammate of input.teammates) {
    if (members.some((member) => member.name === teammate.name))
      throw new ValidationError(`Invalid team options: two members are named "${teammate.name}".`, [
        `teammates: duplicate name ${teammate.name}`,
      ]);
    members.push({
      name: teammate.name,
      agent: agentName(teammate.agent),
      ...(teammate.prompt?.trim() ? { prompt: teammate.prompt } : {}),
      ...(teammate.planModeRequired ? { planModeRequired: true } : {}),
      ...(teammate.tokenBudget !== undefined ? { tokenBudget: teammate.tokenBudget } : {}),
    });
  }
  return {
    name: input.name ?? 'team',
    lead: leadName,
    members,
    sessionKey: input.sessionKey ?? 'default',
    maxMessages: input.maxMessages ?? DEFAULT_TEAM_MESSAGES,
    tokenBudget: input.tokenBudget ?? DEFAULT_TEAM_TOKENS,
  };
}
