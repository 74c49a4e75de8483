package io.quiver.tools.conformance.internal;

import io.quiver.api.RequestContext;
import io.quiver.api.completion.CompletionRequest;
import io.quiver.api.prompt.PromptRequest;
import io.quiver.api.resource.ResourceRequest;
import io.quiver.testing.FakeRequestContext;
import java.util.Map;

/** Plain requests for resources, prompts and completions. */
final class FakeRequests {

    private FakeRequests() {
    }

    record Read(String uri, Map<String, String> variables, RequestContext context) implements ResourceRequest {
        Read(String uri, Map<String, String> variables) {
            this(uri, variables, new FakeRequestContext());
        }
    }

    record Render(String name, Map<String, String> arguments, RequestContext context) implements PromptRequest {
        Render(String name, Map<String, String> arguments) {
            this(name, arguments, new FakeRequestContext());
        }
    }

    record Complete(String argument, String value, Map<String, String> resolvedArguments, RequestContext context)
            implements CompletionRequest {
        Complete(String argument, String value) {
            this(argument, value, Map.of(), new FakeRequestContext());
        }
    }
}
