package io.quiver.api.completion;

import io.quiver.api.RequestContext;
import java.util.Map;
import org.osgi.annotation.versioning.ProviderType;

/** A completion request for one argument. */
@ProviderType
public interface CompletionRequest {

    /** The argument being completed. */
    String argument();

    /** What the user has typed so far. */
    String value();

    /** Values of arguments already filled in. */
    Map<String, String> resolvedArguments();

    /** The request context. */
    RequestContext context();
}
