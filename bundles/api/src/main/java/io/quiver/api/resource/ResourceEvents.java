package io.quiver.api.resource;

import org.osgi.annotation.versioning.ProviderType;

/** A service the server provides: resource bundles tell it when a resource's contents change. */
@ProviderType
public interface ResourceEvents {

    /** Tells every client subscribed to {@code uri} that it changed. */
    void updated(String uri);
}
