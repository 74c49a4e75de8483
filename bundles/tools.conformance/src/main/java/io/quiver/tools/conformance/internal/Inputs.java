package io.quiver.tools.conformance.internal;

import io.quiver.api.Outcome;
import io.quiver.api.ToolCall;
import io.quiver.api.content.TextContent;
import io.quiver.api.input.InputRequest;
import io.quiver.api.input.InputResponse;
import java.util.List;
import java.util.Optional;

/**
 * Helpers of the multi-round-trip fixtures: which requests are still open, and the sampling and
 * roots answers. A 2026-07-28 client gets each open request as an {@code inputRequests} entry; the
 * engine calls the tool again with every answer gathered so far.
 */
final class Inputs {

    private Inputs() {
    }

    /** The requests whose keys have no answer yet, as one outcome; empty once every one is answered. */
    static Optional<Outcome> askUnanswered(ToolCall call, List<InputRequest> requests) {
        List<InputRequest> open = requests.stream().filter(r -> call.answer(r.key()).isEmpty()).toList();
        return open.isEmpty() ? Optional.empty() : Optional.of(new Outcome.NeedsInput(open));
    }

    /** A sampling request of one user text message. */
    static InputRequest.Sampling sampling(String key, String text, int maxTokens) {
        return new InputRequest.Sampling(key,
                List.of(new InputRequest.SamplingMessage("user", new TextContent(text))), maxTokens, null);
    }

    /** The text the client's model answered under the key; empty when there is no such answer. */
    static Optional<String> sampledText(ToolCall call, String key) {
        if (call.answer(key).orElse(null) instanceof InputResponse.Sampled sampled) {
            return Optional.of(sampled.content() instanceof TextContent text ? text.text()
                    : "(" + sampled.content().type() + " content)");
        }
        return Optional.empty();
    }

    /** The roots the client answered under the key; empty when there is no such answer. */
    static Optional<List<InputResponse.Root>> roots(ToolCall call, String key) {
        return call.answer(key).orElse(null) instanceof InputResponse.RootList list
                ? Optional.of(list.roots()) : Optional.empty();
    }

    /** The roots' URIs, comma-separated. */
    static String uris(List<InputResponse.Root> roots) {
        return roots.isEmpty() ? "(none)"
                : String.join(", ", roots.stream().map(InputResponse.Root::uri).toList());
    }
}
