package io.quiver.api.prompt;

import io.quiver.api.RequestContext;
import java.util.Map;
import org.osgi.annotation.versioning.ProviderType;

/** A request to render a prompt. */
@ProviderType
public interface PromptRequest {

    /** The prompt's name. */
    String name();

    /** The argument values the client gave. */
    Map<String, String> arguments();

    /** The request context. */
    RequestContext context();
}
