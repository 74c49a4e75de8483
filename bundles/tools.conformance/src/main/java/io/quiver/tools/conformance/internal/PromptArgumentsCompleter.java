package io.quiver.tools.conformance.internal;

import io.quiver.api.completion.Completer;
import io.quiver.api.completion.Completion;
import io.quiver.api.completion.CompletionRequest;
import io.quiver.api.completion.McpCompletion;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.osgi.service.component.annotations.Component;

/** Suggests values for {@code arg1} and {@code arg2} of the prompt with arguments, by prefix. */
@Component(service = Completer.class)
@McpCompletion(refType = "ref/prompt", ref = PromptWithArguments.NAME)
public final class PromptArgumentsCompleter implements Completer {

    private static final Map<String, List<String>> VALUES = Map.of(
            "arg1", List.of("testValue1", "testAlpha", "sample1"),
            "arg2", List.of("testValue2", "testBeta", "sample2"));

    @Override
    public Completion complete(CompletionRequest request) {
        String typed = request.value() == null ? "" : request.value().toLowerCase(Locale.ROOT);
        List<String> matches = VALUES.getOrDefault(request.argument(), List.of()).stream()
                .filter(value -> value.toLowerCase(Locale.ROOT).startsWith(typed))
                .toList();
        return new Completion(matches, matches.size(), false);
    }
}
