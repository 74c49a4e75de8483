package io.quiver.api.resource;

import org.osgi.annotation.versioning.ProviderType;

/** A service the server provides: resource bundles tell it when a resource's contents change. */
@ProviderType
public interface ResourceEvents {

    /** Tells every client subscribed to {@code uri} that it changed (those that could read it). */
    void updated(String uri);

    /**
     * Tells the clients subscribed to {@code uri} through {@code source} that it changed: those for whom that
     * service reads the URI. A service that serves one tenant's copy of a URI another tenant's service serves too
     * says so, and the other tenant's subscribers hear nothing of it (since 1.1).
     */
    void updated(String uri, Subscribable source);
}
