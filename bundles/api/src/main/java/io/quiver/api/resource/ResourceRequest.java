package io.quiver.api.resource;

import io.quiver.api.RequestContext;
import io.quiver.api.input.InputResponse;
import java.util.Map;
import org.osgi.annotation.versioning.ProviderType;

/** A read of one resource. */
@ProviderType
public interface ResourceRequest {

    /** The URI the client asked for. */
    String uri();

    /** The template variables matched in the URI (empty for fixed resources). */
    Map<String, String> variables();

    /** The request context. */
    RequestContext context();

    /** Answers to the input requests of earlier attempts (see {@link io.quiver.api.input.InputNeeded}), by key. */
    default Map<String, InputResponse> answers() {
        return Map.of();
    }
}
