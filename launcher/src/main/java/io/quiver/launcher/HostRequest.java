package io.quiver.launcher;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;

/**
 * One question the container asks the {@link Host} about one tool call, with everything the host needs to
 * decide: the call ({@link #invocationId()}, unique per call even when two identical calls arrive
 * together), the caller, the arguments as requested and as they will run, the caller's correlation
 * metadata ({@code claudecode/toolUseId}, carried for matching, never a reason to trust), and what the
 * kind adds. Reply with the method for its kind; each reply returns the container's {@link Reply}:
 * accepted, or refused because the request was answered already (duplicate), is no longer waited for
 * (stale: the call ended, timed out or was stopped), or the reply does not fit (invalid: the request
 * stays open for a good one).
 */
public final class HostRequest {

    /** What the container asks. */
    public enum Kind {
        /** May the call run? {@link #approve()}, {@link #approve(Map)} with edited arguments, or {@link #deny}. */
        ADMIT,
        /** The call is prepared (resolved, validated, admitted): {@link #release()} it when it may run, or {@link #deny}. */
        RELEASE,
        /** The tool asks a question (a form): {@link #answer}, {@link #decline()}, {@link #cancel()} or {@link #leaveToClient()}. */
        INPUT,
        /** The result before the caller gets it: {@link #deliver()}, {@link #replace}, {@link #replaceText} or {@link #deny}. */
        REVIEW,
        /** The result as it will be delivered: {@link #recorded()} once stored, or {@link #recordingFailed}. */
        RECORD,
        /**
         * The call is over: {@link #ending()} says how, {@link #detail()} why; no reply. What the caller got was
         * recorded first when a result was delivered (a {@link #RECORD} whose {@link #recorded()} was accepted):
         * completed, or failed when the tool failed or timed out and the caller got that error. A call that
         * delivered no result (denied, not released, stopped, cancelled, a recording that failed or came too
         * late) ends only here, and this is where a host that keeps every call stores it; one stopped or
         * cancelled right after its record says so here too.
         */
        OVER
    }

    /** How a call ended ({@link Kind#OVER}). */
    public enum Ending {
        /** The tool's result was delivered: it may be an error the tool reported. */
        COMPLETED,
        /**
         * The tool failed or timed out, or a step after its admission failed (a question, the review or the
         * record not answered in time, a recording that failed): the caller got an error.
         */
        FAILED,
        /**
         * Not valid: edited arguments that do not fit the tool's schema (it never ran), or arguments the tool
         * found it could not take as its types (a number too large, say: the caller got the error).
         */
        INVALID,
        /** Refused by the host, or not admitted or released in time: the tool never ran. */
        DENIED,
        /** The call waits for input from the user: a 2026-07-28 client sends it again with the answer (a new call). */
        INPUT_REQUIRED,
        /** Stopped by the host or the server, or cancelled by the client. */
        CANCELLED
    }

    /** How the container took a reply. */
    public enum Status {
        ACCEPTED, DUPLICATE, STALE, UNKNOWN, INVALID
    }

    /** The container's answer to a reply; {@code problem} says why an invalid one does not fit. */
    public record Reply(Status status, String problem) {
        public boolean accepted() {
            return status == Status.ACCEPTED;
        }

        static Reply of(Object answer) {
            String text = String.valueOf(answer);
            if (text.startsWith("invalid: ")) {
                return new Reply(Status.INVALID, text.substring("invalid: ".length()));
            }
            return new Reply(Status.valueOf(text.toUpperCase(Locale.ROOT)), null);
        }
    }

    private final Map<String, Object> request;
    private final Function<Map<String, Object>, Object> control;

    HostRequest(Map<String, Object> request, Function<Map<String, Object>, Object> control) {
        this.request = request;
        this.control = control;
    }

    /** The request's id: replies are keyed by it. */
    public String id() {
        return (String) request.get("id");
    }

    public Kind kind() {
        return Kind.valueOf(((String) request.get("kind")).toUpperCase(Locale.ROOT));
    }

    /** The call's id, the same in every request about it. */
    public String invocationId() {
        return (String) request.get("invocationId");
    }

    public String tool() {
        return (String) request.get("tool");
    }

    public String protocolVersion() {
        return (String) request.get("protocolVersion");
    }

    /** Who calls: {@code subject}, {@code tenant}, {@code project}, {@code roles}, {@code authenticated}. */
    public Map<String, Object> caller() {
        return map("caller");
    }

    /** The caller's subject ({@code anonymous} on an endpoint without authentication). */
    public String subject() {
        return (String) caller().get("subject");
    }

    /** The client's self-declared name and version (it names software, not a caller). */
    public Map<String, Object> client() {
        return map("client");
    }

    /** The arguments the tool will run with (after an edit, the edited ones). */
    public Map<String, Object> arguments() {
        return map("arguments");
    }

    /** The arguments as the caller sent them. */
    public Map<String, Object> requestedArguments() {
        return map("requestedArguments");
    }

    /** Whether an edit changed the arguments. */
    public boolean edited() {
        return Boolean.TRUE.equals(request.get("edited"));
    }

    /** The caller's {@code _meta} of the request, for matching the call with the host's records. */
    public Map<String, Object> correlation() {
        return map("correlation");
    }

    /** The tool's own {@code _meta} (a result-size hint, for example). */
    public Map<String, Object> toolMeta() {
        return map("toolMeta");
    }

    /** {@link Kind#INPUT}: the question's key, message and form (a flat JSON Schema). */
    public String key() {
        return (String) request.get("key");
    }

    public String message() {
        return (String) request.get("message");
    }

    public Map<String, Object> schema() {
        return map("schema");
    }

    /** {@link Kind#INPUT}: the answer is a secret; ask for it masked and keep it out of every log. */
    public boolean sensitive() {
        return Boolean.TRUE.equals(request.get("sensitive"));
    }

    /** {@link Kind#INPUT}: the question is asked again because the last answer did not fit the form. */
    public boolean again() {
        return Boolean.TRUE.equals(request.get("again"));
    }

    /**
     * {@link Kind#REVIEW}: the result as the tool gave it; {@link Kind#RECORD}: the result as it will be
     * delivered. An MCP tool result: {@code content} (blocks), {@code structuredContent}, {@code isError}.
     */
    public Map<String, Object> result() {
        return map("result");
    }

    /** {@link Kind#RECORD}: the result as the tool gave it, before review. */
    public Map<String, Object> rawResult() {
        return map("raw");
    }

    /** The text blocks of {@link #result()}, one per line. */
    public String resultText() {
        StringBuilder text = new StringBuilder();
        if (result().get("content") instanceof List<?> blocks) {
            for (Object block : blocks) {
                if (block instanceof Map<?, ?> b && "text".equals(b.get("type"))) {
                    text.append(text.length() == 0 ? "" : "\n").append(b.get("text"));
                }
            }
        }
        return text.toString();
    }

    /** {@link Kind#OVER}: how the call ended; {@code null} for the other kinds (and for an ending this version does not know). */
    public Ending ending() {
        if (request.get("ending") instanceof String ending) {
            for (Ending known : Ending.values()) {
                if (known.name().equalsIgnoreCase(ending)) {
                    return known;
                }
            }
        }
        return null;
    }

    /**
     * {@link Kind#OVER}: a short explanation of the ending (a denial's reason, an error's text: for a failure
     * inside the server, the exception the log has, which the caller does not read), or {@code null} (a
     * completed call, one waiting for input).
     */
    public String detail() {
        return (String) request.get("detail");
    }

    /** The whole request as the container sent it. */
    public Map<String, Object> asMap() {
        return request;
    }

    public Reply approve() {
        return reply("approve", Map.of());
    }

    /** Approves with edited arguments: they are validated again; invalid ones fail the call unrun. */
    public Reply approve(Map<String, Object> editedArguments) {
        return reply("approve", Map.of("arguments", editedArguments));
    }

    /** Denies (ADMIT, RELEASE) or withholds the result (REVIEW); the caller reads the reason. */
    public Reply deny(String reason) {
        return reply("deny", reason == null ? Map.of() : Map.of("reason", reason));
    }

    public Reply release() {
        return reply("release", Map.of());
    }

    /** Answers the form with these field values (checked against the form: one that does not fit is asked again). */
    public Reply answer(Map<String, Object> content) {
        return reply("answer", Map.of("content", content));
    }

    public Reply decline() {
        return reply("decline", Map.of());
    }

    public Reply cancel() {
        return reply("cancel", Map.of());
    }

    /** Lets the calling client answer the question, as without a host. */
    public Reply leaveToClient() {
        return reply("client", Map.of());
    }

    public Reply deliver() {
        return reply("deliver", Map.of());
    }

    /** Delivers this tool result instead ({@code content}, optional {@code structuredContent}, {@code isError}). */
    public Reply replace(Map<String, Object> result) {
        return reply("replace", Map.of("result", result));
    }

    /** Delivers this text instead of the tool's result. */
    public Reply replaceText(String text) {
        return replace(Map.of("content", List.of(Map.of("type", "text", "text", text))));
    }

    public Reply recorded() {
        return reply("recorded", Map.of());
    }

    /** The host could not record the result: the caller gets an error instead of it. */
    public Reply recordingFailed(String reason) {
        return reply("failed", reason == null ? Map.of() : Map.of("reason", reason));
    }

    private Reply reply(String decision, Map<String, Object> values) {
        Map<String, Object> command = new LinkedHashMap<>(values);
        command.put("op", "reply");
        command.put("id", id());
        command.put("decision", decision);
        try {
            return Reply.of(control.apply(command));
        } catch (IllegalStateException e) {
            return new Reply(Status.STALE, "the host channel is closed"); // the container stopped: nothing waits any more
        }
    }

    @SuppressWarnings("unchecked")
    private Map<String, Object> map(String key) {
        return request.get(key) instanceof Map<?, ?> m ? (Map<String, Object>) m : Collections.emptyMap();
    }

    @Override
    public String toString() {
        return kind() + " " + id() + " " + tool();
    }
}
