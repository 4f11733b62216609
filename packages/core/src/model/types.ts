/** Plain text. */
export interface TextBlock {
  type: 'text';
  text: string;
}

/** The model's visible reasoning. `signature` must be sent back unchanged to the Anthropic API. */
export interface ThinkingBlock {
  type: 'thinking';
  thinking: string;
  signature?: string;
}

/** A request by the model to call a tool. */
export interface ToolUseBlock {
  type: 'tool_use';
  id: string;
  name: string;
  input: unknown;
}

/** The image formats the model API reads. */
export type ImageMediaType = 'image/png' | 'image/jpeg' | 'image/gif' | 'image/webp';

/** An image a tool returns for the model to see, base64-encoded (Anthropic-shaped). */
export interface ImageBlock {
  type: 'image';
  source: { type: 'base64'; media_type: ImageMediaType; data: string };
}

/** What a tool result may hold besides a plain string: text, and images. */
export type ToolResultContent = TextBlock | ImageBlock;

/** The answer to a `tool_use`, sent back in the next user message. */
export interface ToolResultBlock {
  type: 'tool_result';
  tool_use_id: string;
  content: string | ToolResultContent[];
  is_error?: boolean;
}

/** Anthropic-shaped content blocks. */
export type ContentBlock = TextBlock | ThinkingBlock | ToolUseBlock | ToolResultBlock;

/** One conversation message, Anthropic-shaped. */
export interface Message {
  role: 'user' | 'assistant';
  content: string | ContentBlock[];
}

/** A JSON Schema object (draft 2020-12 or 07). */
export type JsonSchema = Record<string, unknown>;

/** A tool as the model sees it. */
export interface ToolSpec {
  name: string;
  description: string;
  input_schema: JsonSchema;
}

/** Why the model stopped. */
export type StopReason = 'end_turn' | 'tool_use' | 'max_tokens' | 'stop_sequence' | 'pause_turn' | 'refusal';

/**
 * Tokens used by one call or summed over a task. `input` counts every input token processed,
 * including prompt-cache reads and writes; `cacheRead` / `cacheWrite` say how many of those the
 * cache served or stored (only adapters that know them set these).
 */
export interface Usage {
  input: number;
  output: number;
  cacheRead?: number;
  cacheWrite?: number;
  /** Of `cacheWrite`, the tokens written to a 1-hour cache entry (billed 2× input, not 1.25×). */
  cacheWrite1h?: number;
}

/** What troupe asks of a model: one turn. */
export interface ModelRequest {
  /** A concrete model id, already resolved from aliases by the runtime. */
  model: string;
  system: string;
  messages: Message[];
  tools: ToolSpec[];
  maxTokens: number;
  /**
   * How long a prompt cache should keep this request's prefix: `1h` when the runtime expects the
   * conversation's next request after more than 5 minutes (its background work is still running),
   * else `5m` (the default). Adapters without a prompt cache ignore it.
   */
  cacheLifetime?: '5m' | '1h';
  /**
   * Extended thinking with this budget in tokens (at least 1,024), from the agent's `effort`;
   * absent: the adapter's own default. An adapter that cannot think ignores it.
   */
  thinking?: { budgetTokens: number };
  /** Which task is asking; adapters may use it for logging (never for behaviour). */
  taskId?: string;
  agent?: string;
}

/** A model's answer to one turn. */
export interface ModelResponse {
  content: ContentBlock[];
  stopReason?: StopReason;
  usage: Usage;
  /** The model id the provider actually used (may differ from the requested alias). */
  model?: string;
}

/** A streamed fragment, for live progress. */
export type ModelDelta =
  | { type: 'text'; text: string }
  | { type: 'thinking'; thinking: string }
  | { type: 'tool_use'; id: string; name: string };

/** Optional per-call hooks. */
export interface GenerateOptions {
  /** Called with each streamed fragment as it arrives; adapters that do not stream never call it. */
  onDelta?: (delta: ModelDelta) => void;
}

/**
 * The one interface between troupe and an LLM. `generate` must honour `signal` (reject promptly
 * when it aborts) and should throw a `ModelError` with a stable code on failure.
 */
export interface ModelAdapter {
  /** A short label for logs and results, e.g. `anthropic` or `scripted`. */
  readonly name?: string;
  /**
   * Sends one request (system prompt, messages, tools) and resolves with the model's whole reply.
   * Rejects promptly with an abort error when `signal` aborts.
   */
  generate(request: ModelRequest, signal: AbortSignal, options?: GenerateOptions): Promise<ModelResponse>;
}
