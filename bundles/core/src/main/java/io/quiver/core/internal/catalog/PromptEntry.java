package io.quiver.core.internal.catalog;

import io.quiver.api.prompt.Prompt;
import io.quiver.api.prompt.PromptArgument;
import io.quiver.core.internal.json.Json;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/** A prompt: its listing descriptor, arguments and service. */
public record PromptEntry(String name, ObjectNode descriptor, List<PromptArgument> arguments, Prompt prompt) {

    static final String P = "mcp.prompt.";

    static PromptEntry from(Prompt prompt, Map<String, Object> props) {
        String name = Props.string(props, P + "name");
        if (name == null) {
            throw new IllegalArgumentException("a prompt service needs " + P + "name");
        }
        List<PromptArgument> arguments = List.copyOf(prompt.arguments());
        ObjectNode d = Json.MAPPER.createObjectNode();
        d.put("name", name);
        ToolEntry.putIfPresent(d, "title", Props.string(props, P + "title"));
        ToolEntry.putIfPresent(d, "description", Props.string(props, P + "description"));
        ArrayNode args = d.putArray("arguments");
        for (PromptArgument a : arguments) {
            ObjectNode arg = args.addObject();
            arg.put("name", a.name());
            ToolEntry.putIfPresent(arg, "description", a.description());
            arg.put("required", a.required());
        }
        return new PromptEntry(name, d, arguments, prompt);
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof PromptEntry p && p.prompt == prompt && p.descriptor.equals(descriptor);
    }

    @Override
    public int hashCode() {
        return descriptor.hashCode();
    }
}
