/**
 * Every telemetry name toolhooks emits: span, event, attribute, metric and log field names.
 * Dashboards and alerts depend on these strings (docs/telemetry.md lists them): never rename one lightly.
 *
 * The `gen_ai.*` names are copied from the OpenTelemetry GenAI semantic conventions (still in
 * development upstream) rather than imported, so an upstream rename cannot silently change ours.
 */

/** Tracer and meter name. */
export const INSTRUMENTATION_NAME = 'toolhooks';

// Spans
export const SPAN_EXECUTE_TOOL_PREFIX = 'execute_tool';
export const SPAN_BEFORE_TOOL = 'toolhooks.before_tool';
export const SPAN_AFTER_TOOL = 'toolhooks.after_tool';
export const SPAN_ON_ERROR = 'toolhooks.on_error';
export const SPAN_EXECUTE = 'toolhooks.execute';
/** The wait for an approval: a child of `execute_tool`, after its before_tool phase span. */
export const SPAN_APPROVAL = 'toolhooks.approval';

// Span events
export const EVENT_HOOK_DECISION = 'toolhooks.hook.decision';
export const EVENT_HOOK_DECISION_SHADOWED = 'toolhooks.hook.decision.shadowed';
export const EVENT_HOOK_ERROR = 'toolhooks.hook.error';

// GenAI semantic-convention attributes
export const ATTR_GEN_AI_OPERATION_NAME = 'gen_ai.operation.name';
export const ATTR_GEN_AI_TOOL_NAME = 'gen_ai.tool.name';
export const ATTR_GEN_AI_TOOL_TYPE = 'gen_ai.tool.type';
export const ATTR_GEN_AI_TOOL_CALL_ID = 'gen_ai.tool.call.id';
export const ATTR_GEN_AI_TOOL_CALL_ARGUMENTS = 'gen_ai.tool.call.arguments';
export const ATTR_GEN_AI_TOOL_CALL_RESULT = 'gen_ai.tool.call.result';
export const ATTR_GEN_AI_TOOL_DESCRIPTION = 'gen_ai.tool.description';
export const ATTR_GEN_AI_AGENT_NAME = 'gen_ai.agent.name';
export const GEN_AI_OPERATION_EXECUTE_TOOL = 'execute_tool';
export const GEN_AI_TOOL_TYPE_FUNCTION = 'function';

// The GenAI guardrail draft (semantic-conventions-genai PR #427, open): written only with the runner's
// `conventions: { guardrail: true }`. docs/telemetry.md ("Guardrail conventions") pins the draft's state.
export const ATTR_GUARDRAIL_VERDICT_TYPE = 'gen_ai.guardrail.verdict.type';
export const ATTR_GUARDRAIL_VERDICT_REASON = 'gen_ai.guardrail.verdict.reason';
export const ATTR_GUARDRAIL_ACTION_TYPE = 'gen_ai.guardrail.action.type';
export const ATTR_GUARDRAIL_COMPONENT_NAME = 'gen_ai.guardrail.component.name';
export const ATTR_GUARDRAIL_TARGET_TYPE = 'gen_ai.guardrail.target.type';
export const ATTR_GUARDRAIL_TARGET_SUBTYPE = 'gen_ai.guardrail.target.subtype';
export const ATTR_GUARDRAIL_TARGET_ID = 'gen_ai.guardrail.target.id';
export const ATTR_GUARDRAIL_POLICY_ID = 'gen_ai.guardrail.security.policy.id';
export const ATTR_GUARDRAIL_POLICY_RULE_ID = 'gen_ai.guardrail.security.policy.rule.id';
export const ATTR_GUARDRAIL_CONTENT_INPUT_HASH = 'gen_ai.guardrail.security.content.input.hash';
/** `gen_ai.operation.name` of a guardrail evaluation in the draft. */
export const GEN_AI_OPERATION_RUN_GUARDRAIL = 'run_guardrail';
/** `gen_ai.guardrail.target.subtype` of what a phase guards. */
export const GUARDRAIL_TARGET_TOOL_CALL = 'tool_call';

// Vendor span kinds (runner option `vendorHints`), as each vendor documents them.
export const ATTR_OPENINFERENCE_SPAN_KIND = 'openinference.span.kind';
export const OPENINFERENCE_SPAN_KIND_GUARDRAIL = 'GUARDRAIL';
export const ATTR_LANGFUSE_OBSERVATION_TYPE = 'langfuse.observation.type';
export const LANGFUSE_OBSERVATION_TYPE_GUARDRAIL = 'guardrail';

// General semantic-convention attributes
export const ATTR_ERROR_TYPE = 'error.type';
export const ERROR_TYPE_OTHER = '_OTHER';
export const ATTR_EXCEPTION_TYPE = 'exception.type';
export const ATTR_EXCEPTION_MESSAGE = 'exception.message';
export const ATTR_EXCEPTION_STACKTRACE = 'exception.stacktrace';

// toolhooks attributes
export const ATTR_OUTCOME = 'toolhooks.outcome';
export const ATTR_REDIRECTED = 'toolhooks.redirected';
export const ATTR_TOOL_EFFECTIVE_NAME = 'toolhooks.tool.effective_name';
export const ATTR_RETRIES = 'toolhooks.retries';
export const ATTR_REEXECUTIONS = 'toolhooks.reexecutions';
export const ATTR_ATTEMPT = 'toolhooks.attempt';
export const ATTR_PHASE = 'toolhooks.phase';
export const ATTR_DECISION = 'toolhooks.decision';
export const ATTR_DECISION_HOOK = 'toolhooks.decision.hook';
export const ATTR_DECISION_REASON = 'toolhooks.decision.reason';
export const ATTR_DECISION_WINNER = 'toolhooks.decision.winner';
export const ATTR_DECISION_SHADOWED = 'toolhooks.decision.shadowed';
export const ATTR_HOOKS_INVOKED = 'toolhooks.hooks.invoked';
export const ATTR_DECISIONS_SHADOWED = 'toolhooks.decisions.shadowed';
export const ATTR_HOOK_ERRORS = 'toolhooks.hook.errors';
/** On a phase span whose events did not all fit the SDK's event limit: how many were left out, in all and by kind. */
export const ATTR_EVENTS_DROPPED = 'toolhooks.events.dropped';
export const ATTR_EVENTS_DROPPED_DECISION = 'toolhooks.events.dropped.decision';
export const ATTR_EVENTS_DROPPED_SHADOWED = 'toolhooks.events.dropped.shadowed';
export const ATTR_EVENTS_DROPPED_ERROR = 'toolhooks.events.dropped.error';
export const ATTR_HOOK_NAME = 'toolhooks.hook.name';
export const ATTR_HOOK_INDEX = 'toolhooks.hook.index';
export const ATTR_HOOK_MODE = 'toolhooks.hook.mode';
export const ATTR_HOOK_DURATION_MS = 'toolhooks.hook.duration_ms';
export const ATTR_HOOK_ERROR_KIND = 'toolhooks.hook.error.kind';
export const ATTR_FAILURE_MODE = 'toolhooks.failure_mode';
export const ATTR_REDIRECT_NEW_TOOL = 'toolhooks.redirect.new_tool';
export const ATTR_REDIRECT_ARG_KEYS = 'toolhooks.redirect.arg_keys';
/** Redirect arguments as a redacted JSON string; only with `capture.args` on. */
export const ATTR_REDIRECT_ARGS = 'toolhooks.redirect.args';
/** Whether an after_tool Replace supplied the call's result (`execute_tool`). */
export const ATTR_RESULT_REPLACED = 'toolhooks.result.replaced';
/** Whether an enforce-mode hook was invoked in the call's before_tool phase (`toolhooks.tool.calls`). */
export const ATTR_GATED = 'toolhooks.gated';
/** An aborted or denied call with `abortStatus: 'unset'`: its status stays UNSET, and this marks it. */
export const ATTR_BLOCKED = 'toolhooks.blocked';

// Approvals (the `toolhooks.approval` span; outcome also on `execute_tool` and the approval metrics)
/** Unique per approval; what the approver was given as `request.id`. */
export const ATTR_APPROVAL_ID = 'toolhooks.approval.id';
/** The hook that asked (the first asking hook). */
export const ATTR_APPROVAL_HOOK = 'toolhooks.approval.hook';
/** `approved | denied | expired | error | no_approver | pending`. */
export const ATTR_APPROVAL_OUTCOME = 'toolhooks.approval.outcome';
/** The opaque reference the approver returned (`approver`), when it gave one. */
export const ATTR_APPROVAL_APPROVER = 'toolhooks.approval.approver';
/** Whether the approver edited the arguments (an edit is not a Redirect). */
export const ATTR_APPROVAL_EDITED = 'toolhooks.approval.edited';
/** The approver's reason for a refusal, when it gave one (cut to `capture.maxLength`). */
export const ATTR_APPROVAL_DENIAL_REASON = 'toolhooks.approval.denial_reason';

// Limit hooks (toolhooks/limits; docs/limits.md): on a limit hook's `toolhooks.hook.decision` events.
// The key a limit counts under is never recorded: it is usually a user or session id.
/** The cost counted for the key: after the call was let through (with its cost), or the count that stopped it. */
export const ATTR_LIMIT_USED = 'toolhooks.limit.used';
/** The limit: calls, or cost units. */
export const ATTR_LIMIT_LIMIT = 'toolhooks.limit.limit';
/** The sliding window in milliseconds; absent for a lifetime limit. */
export const ATTR_LIMIT_WINDOW_MS = 'toolhooks.limit.window_ms';

// Metrics (OTel names; Prometheus names in the comments)
/** Histogram, seconds → `gen_ai_execute_tool_duration_seconds`. */
export const METRIC_TOOL_DURATION = 'gen_ai.execute_tool.duration';
/** Counter `{call}` → `toolhooks_tool_calls_total`. */
export const METRIC_TOOL_CALLS = 'toolhooks.tool.calls';
/** Counter `{decision}` → `toolhooks_hook_decisions_total`. */
export const METRIC_HOOK_DECISIONS = 'toolhooks.hook.decisions';
/** Counter `{error}` → `toolhooks_hook_errors_total`. */
export const METRIC_HOOK_ERRORS = 'toolhooks.hook.errors';
/** Histogram, seconds → `toolhooks_hook_duration_seconds`. */
export const METRIC_HOOK_DURATION = 'toolhooks.hook.duration';
/** Counter `{request}` → `toolhooks_approval_requests_total`. */
export const METRIC_APPROVAL_REQUESTS = 'toolhooks.approval.requests';
/** Histogram, seconds (the wait alone) → `toolhooks_approval_duration_seconds`. */
export const METRIC_APPROVAL_DURATION = 'toolhooks.approval.duration';
/** Counter `{call}`, each call a limit hook stopped → `toolhooks_limit_exceeded_total`. */
export const METRIC_LIMIT_EXCEEDED = 'toolhooks.limit.exceeded';
/** Bucket boundaries of `gen_ai.execute_tool.duration` (GenAI semantic conventions). */
export const TOOL_DURATION_BUCKETS: readonly number[] = Object.freeze([
  0.01, 0.02, 0.04, 0.08, 0.16, 0.32, 0.64, 1.28, 2.56, 5.12, 10.24, 20.48, 40.96, 81.92,
]);
/**
 * Bucket boundaries of `toolhooks.hook.duration`, in seconds. Hooks are mostly in-process checks that
 * take microseconds to milliseconds, with a tail of remote calls (a policy service, an LLM judge) up to
 * the default 30 s timeout, so the buckets are dense below 10 ms and sparse above 1 s.
 */
export const HOOK_DURATION_BUCKETS: readonly number[] = Object.freeze([
  0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30,
]);
/**
 * Bucket boundaries of `toolhooks.approval.duration`, in seconds. Automatic approvers answer in
 * milliseconds, people in seconds to minutes, up to the default 5-minute timeout (300 s) and beyond.
 */
export const APPROVAL_DURATION_BUCKETS: readonly number[] = Object.freeze([
  0.01, 0.05, 0.1, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 600, 1800,
]);

// Log records (LoggingHook). Fields that mean the same as a span attribute use its name (above);
// these are the ones that only logs carry.
/** Trace context of the active span, as the OTel log data model and pino's OTel instrumentation name them. */
export const LOG_TRACE_ID = 'trace_id';
export const LOG_SPAN_ID = 'span_id';
export const LOG_TRACE_FLAGS = 'trace_flags';
/** How long the whole tool call took, in milliseconds (the `execute_tool` span's duration). */
export const ATTR_TOOL_DURATION_MS = 'toolhooks.tool.duration_ms';
/** Message of a tool outcome record: `tool call completed`, `tool call aborted`, ... */
export const LOG_MSG_TOOL_PREFIX = 'tool call';
/** Message of a non-Continue decision record: `hook decided skip`, `hook decided redirect`, `hook decided abort`. */
export const LOG_MSG_DECISION_PREFIX = 'hook decided';
/** Message of a shadowed decision record. */
export const LOG_MSG_SHADOWED = 'hook decision shadowed';
/** Message prefix of an audit hook's decision: "hook would abort". */
export const LOG_MSG_AUDIT_PREFIX = 'hook would';
/** How long an approval wait took, in milliseconds (the `toolhooks.approval` span's duration). */
export const ATTR_APPROVAL_DURATION_MS = 'toolhooks.approval.duration_ms';
/** Message prefix of an approval record: `approval approved`, `approval expired`, ... */
export const LOG_MSG_APPROVAL_PREFIX = 'approval';
/** Message of a swallowed hook failure record. */
export const LOG_MSG_HOOK_FAILED = 'hook failed';

// MCP semantic-convention attributes (the MCP adapter's execute_tool span; docs/adapters.md)
export const ATTR_MCP_METHOD_NAME = 'mcp.method.name';
export const ATTR_MCP_SESSION_ID = 'mcp.session.id';
export const ATTR_MCP_PROTOCOL_VERSION = 'mcp.protocol.version';
export const ATTR_NETWORK_TRANSPORT = 'network.transport';
/** `mcp.method.name` of a tool call. */
export const MCP_METHOD_TOOLS_CALL = 'tools/call';
/** `error.type` of an MCP tool result with `isError: true`. */
export const ERROR_TYPE_TOOL_ERROR = 'tool_error';

// Receipts (toolhooks/receipts; docs/receipts.md)
/** The receipt stream of the call's outcome record, on the `execute_tool` span. */
export const ATTR_RECEIPT_STREAM = 'toolhooks.receipt.stream';
/** The `seq` of the call's outcome record in its stream, on the `execute_tool` span. */
export const ATTR_RECEIPT_SEQ = 'toolhooks.receipt.seq';
// Policies (toolhooks/policy: on the policy hook's `toolhooks.hook.decision` events; docs/policies.md)
/** The engine that decided: `opa-wasm`, `opa-http`, `cedar`, or a custom engine's name. */
export const ATTR_POLICY_ENGINE = 'toolhooks.policy.engine';
/** The lowercase hex SHA-256 of the loaded policy (wasm bytes, bundle file or Cedar text), when known. */
export const ATTR_POLICY_DIGEST = 'toolhooks.policy.digest';
/** The ids of the determining policies or rules (string[]), when the engine names them. */
export const ATTR_POLICY_IDS = 'toolhooks.policy.ids';
