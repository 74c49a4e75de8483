package io.quiver.host.internal;

import io.quiver.api.CallerIdentity;
import io.quiver.api.ClientInfo;
import io.quiver.api.call.Invocation;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What the host receives, as a {@code Map} of JSON values (String, Number, Boolean, List, Map, null): the
 * request's {@code id} and {@code kind}, the call ({@code invocationId}, {@code tool},
 * {@code protocolVersion}, {@code caller}, {@code client}, {@code arguments}, {@code requestedArguments},
 * {@code edited}, {@code correlation}, {@code toolMeta}) and what the kind adds. And what a reply must
 * hold for each kind: its {@code decision} and the values that decision needs.
 */
final class Requests {

    private Requests() {
    }

    static Map<String, Object> request(String id, String kind, Invocation invocation, Map<String, Object> details) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("id", id);
        out.put("kind", kind);
        out.put("invocationId", invocation.invocationId());
        out.put("tool", invocation.tool());
        out.put("protocolVersion", invocation.protocolVersion());
        out.put("caller", caller(invocation.caller()));
        ClientInfo client = invocation.client();
        Map<String, Object> c = new LinkedHashMap<>();
        c.put("name", client == null ? null : client.name());
        c.put("version", client == null ? null : client.version());
        out.put("client", c);
        out.put("arguments", invocation.arguments());
        out.put("requestedArguments", invocation.requestedArguments());
        out.put("edited", invocation.edited());
        out.put("correlation", invocation.correlation());
        out.put("toolMeta", invocation.toolMeta());
        out.putAll(details);
        return out;
    }

    private static Map<String, Object> caller(CallerIdentity caller) {
        Map<String, Object> out = new LinkedHashMap<>();
        if (caller == null) {
            return out;
        }
        out.put("subject", caller.subject());
        out.put("tenant", caller.tenant());
        out.put("project", caller.project());
        out.put("roles", List.copyOf(caller.roles()));
        out.put("authenticated", caller.authenticated());
        return out;
    }

    /** Why a reply does not fit a request of this kind, or {@code null}. */
    static String misfit(String kind, Map<String, Object> reply) {
        Object decision = reply.get("decision");
        List<String> allowed = switch (kind) {
            case "admit" -> List.of("approve", "deny");
            case "release" -> List.of("release", "deny");
            case "input" -> List.of("answer", "decline", "cancel", "client");
            case "review" -> List.of("deliver", "replace", "deny");
            case "record" -> List.of("recorded", "failed");
            default -> List.of();
        };
        if (!allowed.contains(decision)) {
            return "a reply to " + kind + " decides one of " + allowed + ", not " + decision;
        }
        if ("approve".equals(decision) && reply.get("arguments") != null && !(reply.get("arguments") instanceof Map)) {
            return "edited arguments are an object";
        }
        if ("answer".equals(decision) && !(reply.get("content") instanceof Map)) {
            return "an answer has its content: an object of the form's fields";
        }
        if ("replace".equals(decision) && !(reply.get("result") instanceof Map<?, ?> result
                && result.get("content") instanceof List)) {
            return "a replacement is a tool result: an object with a content list";
        }
        Object reason = reply.get("reason");
        if (reason != null && !(reason instanceof String)) {
            return "a reason is a string";
        }
        return null;
    }
}
