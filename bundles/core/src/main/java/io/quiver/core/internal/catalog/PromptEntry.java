package io.quiver.core.internal.catalog;

import io.quiver.api.prompt.Prompt;
import io.quiver.api.prompt.PromptArgument;
import io.quiver.core.internal.messages.PromptDescriptor;
import java.util.List;
import java.util.Map;

/** A prompt: its listing descriptor, arguments and service. */
public record PromptEntry(String name, PromptDescriptor descriptor, List<PromptArgument> arguments, Prompt prompt) {

    static final String P = "mcp.prompt.";

    static PromptEntry from(Prompt prompt, Map<String, Object> props) {
        String name = Props.string(props, P + "name");
        if (name == null) {
            throw new IllegalArgumentException("a prompt service needs " + P + "name");
        }
        List<PromptArgument> arguments = List.copyOf(prompt.arguments());
        PromptDescriptor d = new PromptDescriptor(name, Props.string(props, P + "title"),
                Icons.of(props, P + "icons", "prompt " + name), Props.string(props, P + "description"), arguments.stream()
                        .map(a -> new PromptDescriptor.Argument(a.name(), a.description(), a.required())).toList());
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
